package io.muster.engine.report;

import io.muster.engine.resource.Change;
import java.util.List;

/** What happened to one resource: its status, the attributes changed, and why it failed or was skipped. */
public record ResourceReport(String id, Status status, List<Change> changes, boolean refreshed, String message,
                             String error, long durationMs) {

    public ResourceReport {
        changes = List.copyOf(changes);
    }

    public static ResourceReport skipped(String id, String why) {
        return new ResourceReport(id, Status.SKIPPED, List.of(), false, why, null, 0);
    }

    public List<String> changedAttributes() {
        return changes.stream().map(Change::attribute).distinct().toList();
    }
}
