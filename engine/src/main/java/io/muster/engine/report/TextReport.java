package io.muster.engine.report;

import io.muster.engine.health.HealthResult;
import io.muster.engine.health.HealthStatus;
import io.muster.engine.resource.Change;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Human output: a line per resource that is not stable, as it finishes
 * ({@code file#/etc/motd changed content,mode 3ms}), attribute changes (indented) and diffs under it when asked, a
 * line per health check that ran, then a summary block. A child manifest's resource lines end with the
 * manifest in brackets ({@code [lib/web.yaml]}); a group names the resources grouped into it after its own
 * ({@code pkg#vim (with pkg#git, pkg#jq) changed installed}). Quiet, it says only what failed; verbose, it lists
 * stable resources too.
 */
public final class TextReport {
    private final PrintWriter out;
    private final boolean details;
    private final Colors colors;
    private final Verbosity verbosity;

    /** How much the report says. */
    public enum Verbosity {
        /** Only what failed: resources and health checks that are not OK; no summary. */
        QUIET,
        /** What changed or did not go well, and the summary. */
        NORMAL,
        /** Every resource, stable ones too, and the summary. */
        VERBOSE
    }

    /** @param details print attribute changes and content diffs under each changed resource */
    public TextReport(PrintWriter out, boolean details) {
        this(out, details, Colors.NONE, Verbosity.NORMAL);
    }

    /** @param colors status words and diffs in colour, for a terminal, or {@link Colors#NONE} */
    public TextReport(PrintWriter out, boolean details, Colors colors, Verbosity verbosity) {
        this.out = out;
        this.details = details;
        this.colors = colors;
        this.verbosity = verbosity;
    }

    public synchronized void resource(ResourceReport r) {
        String origin = r.manifest() == null ? "" : " [" + r.manifest() + "]";
        boolean shown = switch (verbosity) {
            case QUIET -> r.status().failure();
            case NORMAL -> r.status() != Status.STABLE;
            case VERBOSE -> true;
        };
        if (shown) line(r, origin);
        for (HealthResult check : r.healthChecks()) {
            if (verbosity != Verbosity.QUIET || check.status() != HealthStatus.OK) out.println(r.id() + " " + check.describe(colors.health(check.status())) + origin);
        }
        out.flush();
    }

    private void line(ResourceReport r, String origin) {
        StringBuilder line = new StringBuilder(r.id());
        if (!r.grouped().isEmpty()) line.append(" (with ").append(String.join(", ", r.grouped())).append(')');
        line.append(' ').append(colors.status(r.status()));
        if (!r.changes().isEmpty()) line.append(' ').append(String.join(",", r.changedAttributes()));
        if (r.refreshed()) line.append(" (refreshed)");
        if (r.status() == Status.CHANGED || r.status() == Status.FAILED) line.append(' ').append(r.durationMs()).append("ms");
        if (r.error() != null) line.append(": ").append(r.error());
        else if (r.message() != null && r.status() != Status.CHANGED) line.append(": ").append(r.message());
        out.println(line.append(origin));
        if (details) {
            for (Change c : r.changes()) {
                String description = c.describe();
                if (description != null) out.println("    " + description);
                if (c.diff() != null) out.print(colors.diff(c.diff())); // not indented: plan's output is a patch for patch and git apply
            }
        }
    }

    public synchronized void summary(Report report) {
        if (verbosity == Verbosity.QUIET) return;
        out.printf(Locale.ROOT, "%s on %s: %d resources in %dms%n", report.mode(), report.host(), report.resources().size(), report.durationMs());
        String foreseen = report.noop() ? String.format(Locale.ROOT, ", would fail %d", report.count(Status.WOULD_FAIL)) : "";
        out.printf(Locale.ROOT, "  changed %d%s, stable %d, failed %d, skipped %d, unresolvable %d, refreshed %d%n",
                report.count(Status.CHANGED), foreseen, report.count(Status.STABLE), report.count(Status.FAILED),
                report.count(Status.SKIPPED), report.count(Status.UNRESOLVABLE), report.refreshed());
        if (report.healthCheckOnly() || report.healthChecks() > 0) {
            out.printf(Locale.ROOT, "  health checks: ok %d, warning %d, critical %d, unknown %d%n", report.count(HealthStatus.OK),
                    report.count(HealthStatus.WARNING), report.count(HealthStatus.CRITICAL), report.count(HealthStatus.UNKNOWN));
        }
        long unresolvable = report.count(Status.UNRESOLVABLE);
        if (unresolvable > 0) {
            out.printf(Locale.ROOT, "%d resource(s) depend on effectful results and may change%n", unresolvable);
        }
        out.flush();
    }
}
