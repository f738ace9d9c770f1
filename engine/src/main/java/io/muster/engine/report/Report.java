package io.muster.engine.report;

import java.util.List;

/** The result of a run: one entry per resource, in declaration order. */
public record Report(String host, boolean noop, long durationMs, List<ResourceReport> resources) {

    public Report {
        resources = List.copyOf(resources);
    }

    public long count(Status status) {
        return resources.stream().filter(r -> r.status() == status).count();
    }

    public long refreshed() {
        return resources.stream().filter(ResourceReport::refreshed).count();
    }

    /**
     * Puppet's detailed exit codes: 0 nothing changed, 2 changes, 4 failures, 6 both. In noop, pending
     * changes (and unresolvable resources, which may change) count as changes.
     */
    public int detailedExitCode() {
        boolean changes = count(Status.CHANGED) > 0 || count(Status.UNRESOLVABLE) > 0;
        boolean failures = count(Status.FAILED) > 0;
        return (changes ? 2 : 0) | (failures ? 4 : 0);
    }

    /** 0 on success, 1 when any resource failed. */
    public int exitCode() {
        return count(Status.FAILED) > 0 ? 1 : 0;
    }
}
