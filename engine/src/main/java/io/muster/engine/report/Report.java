package io.muster.engine.report;

import io.muster.engine.health.HealthResult;
import io.muster.engine.health.HealthStatus;
import java.util.List;
import java.util.stream.Stream;

/**
 * The result of a run: one entry per resource, in declaration order.
 *
 * @param healthCheckOnly the run only ran health checks ({@code muster check})
 * @param graphCache whether its graph came from the compiled-graph cache: {@code hit}, {@code miss} (compiled and
 *     cached) or {@code off} (compiled, the cache not read); null when the run had no say in it
 */
public record Report(String host, boolean noop, long durationMs, List<ResourceReport> resources, boolean healthCheckOnly,
                     String graphCache) {

    public Report {
        resources = List.copyOf(resources);
    }

    public Report(String host, boolean noop, long durationMs, List<ResourceReport> resources, boolean healthCheckOnly) {
        this(host, noop, durationMs, resources, healthCheckOnly, null);
    }

    public Report(String host, boolean noop, long durationMs, List<ResourceReport> resources) {
        this(host, noop, durationMs, resources, false);
    }

    /** This report, saying how its graph came to be ({@link #graphCache}). */
    public Report withGraphCache(String outcome) {
        return new Report(host, noop, durationMs, resources, healthCheckOnly, outcome);
    }

    public long count(Status status) {
        return resources.stream().filter(r -> r.status() == status).count();
    }

    public long refreshed() {
        return resources.stream().filter(ResourceReport::refreshed).count();
    }

    /** How many health checks ended with {@code status}. */
    public long count(HealthStatus status) {
        return healthResults().filter(r -> r.status() == status).count();
    }

    public long healthChecks() {
        return healthResults().count();
    }

    private Stream<HealthResult> healthResults() {
        return resources.stream().flatMap(r -> r.healthChecks().stream());
    }

    /** {@code apply}, {@code noop} or {@code check}. */
    public String mode() {
        return healthCheckOnly ? "check" : noop ? "noop" : "apply";
    }

    /**
     * Puppet's detailed exit codes: 0 nothing changed, 2 changes, 4 failures, 6 both. In noop, pending
     * changes (and unresolvable resources, which may change) count as changes, failures foreseen as failures.
     */
    public int detailedExitCode() {
        boolean changes = count(Status.CHANGED) > 0 || count(Status.UNRESOLVABLE) > 0;
        return (changes ? 2 : 0) | exitCode() * 4;
    }

    /** 0 on success, 1 when any resource failed (or, in noop, would fail). */
    public int exitCode() {
        return resources.stream().anyMatch(r -> r.status().failure()) ? 1 : 0;
    }
}
