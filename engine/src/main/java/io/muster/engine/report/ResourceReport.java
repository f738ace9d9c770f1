package io.muster.engine.report;

import io.muster.engine.health.HealthResult;
import io.muster.engine.resource.Change;
import java.util.List;

/**
 * What happened to one resource: its status, the attributes changed, why it failed or was skipped, what
 * its health checks said, for a resource of a child manifest, that manifest (null for the root's), and the
 * resources autogroup merged into it, which it converged too.
 */
public record ResourceReport(String id, Status status, List<Change> changes, boolean refreshed, String message,
                             String error, long durationMs, List<HealthResult> healthChecks, String manifest,
                             List<String> grouped) {

    public ResourceReport {
        changes = List.copyOf(changes);
        healthChecks = List.copyOf(healthChecks);
        grouped = List.copyOf(grouped);
    }

    public ResourceReport(String id, Status status, List<Change> changes, boolean refreshed, String message,
                          String error, long durationMs) {
        this(id, status, changes, refreshed, message, error, durationMs, List.of(), null, List.of());
    }

    public static ResourceReport skipped(String id, String why) {
        return new ResourceReport(id, Status.SKIPPED, List.of(), false, why, null, 0);
    }

    public List<String> changedAttributes() {
        return changes.stream().map(Change::attribute).distinct().toList();
    }

    /** With its health checks' results; a check that is not OK fails the resource. */
    public ResourceReport withHealthChecks(List<HealthResult> results) {
        String failure = results.stream().filter(r -> !r.ok()).findFirst().map(HealthResult::describe).orElse(null);
        Status judged = failure != null ? Status.FAILED : status;
        return new ResourceReport(id, judged, changes, refreshed, message, failure != null ? failure : error, durationMs, results, manifest, grouped);
    }

    /** Placed in the graph: the child manifest it comes from (null for the root), the resources grouped into it. */
    public ResourceReport placed(String childManifest, List<String> groupedIds) {
        return new ResourceReport(id, status, changes, refreshed, message, error, durationMs, healthChecks, childManifest, groupedIds);
    }
}
