package io.muster.coordinator.rollout;

import java.time.Duration;

/**
 * How a deploy goes out in waves, as {@code muster deploy} was told.
 *
 * @param canaries how many hosts come first, in a wave of their own (0: none); a canary that fails always halts
 * @param batch each later wave's size, of all the hosts planned; null: every host after the canaries in one wave
 * @param maxFailures how many hosts of a wave (or what share of it) may fail with the rollout going on
 * @param waveTimeout how long a wave may take to settle before it halts; zero: no limit
 * @param orderBy the fact ({@code facts.rack}, {@code facts.os.family}) hosts are sorted by before their names; null: by name
 */
public record RolloutSpec(int canaries, Share batch, Share maxFailures, Duration waveTimeout, String orderBy) {
    public static final String FACTS = "facts.";

    public RolloutSpec {
        if (canaries < 0) throw new IllegalArgumentException("--canary: expected 0 or more hosts, got " + canaries);
        if (batch != null && batch.count() < 1) throw new IllegalArgumentException("--batch: expected at least one host, got " + batch);
        if (orderBy != null && (!orderBy.startsWith(FACTS) || orderBy.length() == FACTS.length())) {
            throw new IllegalArgumentException("--order-by: expected facts.NAME (facts.rack), got '" + orderBy + "'");
        }
        if (waveTimeout.isNegative()) throw new IllegalArgumentException("--wave-timeout: expected 0 or more seconds, got " + waveTimeout);
    }
}
