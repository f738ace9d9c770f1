package io.muster.agent;

import io.muster.agent.etcd.Keys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * How an agent runs.
 *
 * @param host this host's name in the fleet (checked: {@link Keys#checkHost})
 * @param prefix muster's state prefix; the agent keeps its last graph and bundles under {@code <prefix>/agent}
 * @param facts overrides merged over the gathered facts ({@code --fact}, {@code --facts}), nested maps
 * @param leaseTtl the TTL of the agent's lease: how long after the agent is gone its alive key and exports stay
 * @param quietSeconds how long nothing may change for the run to count as converged
 * @param sema how many resources may check or apply at once
 */
public record AgentOptions(String host, Path prefix, Map<String, Object> facts, Duration leaseTtl, double quietSeconds, int sema) {
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(30);

    public AgentOptions {
        Keys.checkHost(host);
        facts = Map.copyOf(facts);
        if (leaseTtl.toSeconds() < 1) throw new IllegalArgumentException("--lease-ttl must be at least 1 second, got " + leaseTtl.toMillis() + " ms");
    }

    /** Where the agent keeps what it must find again after a restart. */
    Path dir() {
        return prefix.resolve("agent");
    }
}
