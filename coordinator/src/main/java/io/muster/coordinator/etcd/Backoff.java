package io.muster.coordinator.etcd;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Waits between attempts to reach etcd: a ceiling doubling from {@link #FIRST} up to {@link #MOST}, each wait
 * a random time between half the ceiling and all of it, so coordinators that lost etcd together do not come
 * back as a herd.
 */
public final class Backoff {
    static final Duration FIRST = Duration.ofMillis(200);
    static final Duration MOST = Duration.ofSeconds(10);

    private Duration ceiling = FIRST;

    public Duration next() {
        Duration wait = Duration.ofMillis(ThreadLocalRandom.current().nextLong(ceiling.toMillis() / 2, ceiling.toMillis() + 1));
        ceiling = ceiling.multipliedBy(2).compareTo(MOST) > 0 ? MOST : ceiling.multipliedBy(2);
        return wait;
    }

    public void reset() {
        ceiling = FIRST;
    }
}
