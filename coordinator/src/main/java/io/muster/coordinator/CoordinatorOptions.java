package io.muster.coordinator;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a coordinator runs.
 *
 * @param name its name in the election (default: its host name and process id)
 * @param leaseTtl how long a dead leader keeps the lead ({@code --lease-ttl})
 * @param compileThreads hosts compiled at once
 * @param stateDir where it lays out deploys' bundles
 * @param compactEvery how often the leader compacts etcd's history, keeping that of the last interval
 */
public record CoordinatorOptions(String name, Duration leaseTtl, int compileThreads, Path stateDir, Duration compactEvery) {
    public static final long DEFAULT_LEASE_TTL_SECONDS = 15;
    public static final Duration DEFAULT_COMPACT_EVERY = Duration.ofMinutes(10);

    public CoordinatorOptions {
        if (leaseTtl.toSeconds() < 1) throw new IllegalArgumentException("--lease-ttl: expected at least 1 second, got " + leaseTtl);
        if (compileThreads < 1) throw new IllegalArgumentException("expected at least one compile thread, got " + compileThreads);
    }
}
