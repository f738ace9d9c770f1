package io.muster.engine.report;

import io.muster.engine.health.HealthResult;
import io.muster.engine.resource.Change;
import java.util.List;
import java.util.Objects;

/**
 * What happened to one resource: its status, the attributes changed, why it failed or was skipped, what
 * its health checks said, for a resource of a child manifest, that manifest (null for the root's), and the
 * resources autogroup merged into it, which it converged too.
 *
 * <p>Built with the factory methods, which say what each status carries: a failed report has its error,
 * a skipped or unresolvable one says why in its message, only a failed one has an error.
 */
public record ResourceReport(String id, Status status, List<Change> changes, boolean refreshed, String message,
                             String error, long durationMs, List<HealthResult> healthChecks, String manifest,
                             List<String> grouped) {

    public ResourceReport {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(status, "status");
        if ((status == Status.FAILED) != (error != null)) {
            throw new IllegalArgumentException(id + ": a report has an error exactly when it failed, got " + status + " with error " + error);
        }
        if ((status == Status.SKIPPED || status == Status.UNRESOLVABLE || status == Status.WOULD_FAIL) && message == null) {
            throw new IllegalArgumentException(id + ": a " + status.label() + " report says why");
        }
        if (durationMs < 0) throw new IllegalArgumentException(id + ": negative duration " + durationMs);
        changes = List.copyOf(changes);
        healthChecks = List.copyOf(healthChecks);
        grouped = List.copyOf(grouped);
    }

    private ResourceReport(String id, Status status, List<Change> changes, boolean refreshed, String message,
                           String error, long durationMs) {
        this(id, status, changes, refreshed, message, error, durationMs, List.of(), null, List.of());
    }

    /** Checked (and, unless in noop, applied): changed when {@code changes} says a change was (or would be) made. */
    public static ResourceReport checked(String id, boolean changed, List<Change> changes, boolean refreshed, String message,
                                         long durationMs) {
        return new ResourceReport(id, changed ? Status.CHANGED : Status.STABLE, changes, refreshed, message, null, durationMs);
    }

    /** Converged without a change of its own to list (an aggregate of other resources, a health-check run). */
    public static ResourceReport stable(String id, String message, long durationMs) {
        return checked(id, false, List.of(), false, message, durationMs);
    }

    /** Changed without a change of its own to list: an aggregate whose members changed. */
    public static ResourceReport changed(String id, String message) {
        return checked(id, true, List.of(), false, message, 0);
    }

    public static ResourceReport failed(String id, String error) {
        return failed(id, null, error, 0);
    }

    /** @param message a note besides the error (a warning), or null */
    public static ResourceReport failed(String id, String message, String error, long durationMs) {
        return new ResourceReport(id, Status.FAILED, List.of(), false, message, Objects.requireNonNull(error, "error"), durationMs);
    }

    public static ResourceReport skipped(String id, String why) {
        return new ResourceReport(id, Status.SKIPPED, List.of(), false, why, null, 0);
    }

    /** Not checked: it needs a value only an apply of another resource would produce (noop only). */
    public static ResourceReport unresolvable(String id, String why, long durationMs) {
        return new ResourceReport(id, Status.UNRESOLVABLE, List.of(), false, why, null, durationMs);
    }

    /** Would change ({@code changes}), and applying it would fail, for the reason {@code why} (noop only). */
    public static ResourceReport wouldFail(String id, List<Change> changes, String why, long durationMs) {
        return new ResourceReport(id, Status.WOULD_FAIL, changes, false, why, null, durationMs);
    }

    /** Undone as it left the graph ({@code meta.reverse}). */
    public static ResourceReport reversed(String id, boolean changed, List<Change> changes, long durationMs) {
        return checked(id, changed, changes, false, "reversed", durationMs);
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
