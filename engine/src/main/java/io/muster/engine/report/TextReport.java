package io.muster.engine.report;

import io.muster.engine.resource.Change;
import java.io.PrintWriter;

/**
 * Human output: a line per resource that is not stable, as it finishes
 * ({@code file#/etc/motd changed content,mode 3ms}), attribute changes and diffs under it when asked,
 * then a summary block.
 */
public final class TextReport {
    private final PrintWriter out;
    private final boolean details;

    /** @param details print attribute changes and content diffs under each changed resource */
    public TextReport(PrintWriter out, boolean details) {
        this.out = out;
        this.details = details;
    }

    public synchronized void resource(ResourceReport r) {
        if (r.status() == Status.STABLE) return;
        StringBuilder line = new StringBuilder(r.id()).append(' ').append(r.status().label());
        if (!r.changes().isEmpty()) line.append(' ').append(String.join(",", r.changedAttributes()));
        if (r.refreshed()) line.append(" (refreshed)");
        if (r.status() == Status.CHANGED || r.status() == Status.FAILED) line.append(' ').append(r.durationMs()).append("ms");
        if (r.error() != null) line.append(": ").append(r.error());
        else if (r.message() != null && r.status() != Status.CHANGED) line.append(": ").append(r.message());
        out.println(line);
        if (details) {
            for (Change c : r.changes()) {
                String description = c.describe();
                if (description != null) out.println("    " + description);
                if (c.diff() != null) c.diff().lines().forEach(l -> out.println("    " + l));
            }
        }
        out.flush();
    }

    public synchronized void summary(Report report) {
        String mode = report.noop() ? "noop" : "apply";
        out.printf("%s on %s: %d resources in %dms%n", mode, report.host(), report.resources().size(), report.durationMs());
        out.printf("  changed %d, stable %d, failed %d, skipped %d, unresolvable %d, refreshed %d%n",
                report.count(Status.CHANGED), report.count(Status.STABLE), report.count(Status.FAILED),
                report.count(Status.SKIPPED), report.count(Status.UNRESOLVABLE), report.refreshed());
        long unresolvable = report.count(Status.UNRESOLVABLE);
        if (unresolvable > 0) {
            out.printf("%d resource(s) depend on effectful results and may change%n", unresolvable);
        }
        out.flush();
    }
}
