package io.muster.engine.run;

import io.muster.engine.report.JsonDocument;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.util.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a live run ({@code muster run}) says when it ends: each resource's last status and how often it
 * was checked, changed and failed, and the resources undone as they left the graph ({@code meta.reverse}).
 * The JSON shape is a contract: add fields, never rename them.
 */
public record LiveReport(String host, boolean noop, boolean converged, long durationMs, List<ResourceStats> resources,
                         List<ResourceReport> reversed) {

    public LiveReport {
        resources = List.copyOf(resources);
        reversed = List.copyOf(reversed);
    }

    /** A resource's last status, or {@code pending} when it never ran. */
    static String status(ResourceStats s) {
        return s.last() == null ? "pending" : s.last().status().label();
    }

    private long count(String status) {
        return resources.stream().filter(r -> status(r).equals(status)).count();
    }

    private long sum(java.util.function.ToLongFunction<ResourceStats> counter) {
        return resources.stream().mapToLong(counter).sum();
    }

    /** 0 when no resource is failing as the run ends, 1 when one is: converging does not excuse a failure. */
    public int exitCode() {
        return count("failed") + count("would_fail") > 0 ? 1 : 0;
    }

    /**
     * {@code --detailed-exitcodes}, as apply has them: 2 when the run changed something (in noop: found
     * something to change), 4 when a resource is failing as it ends, 6 both, 0 neither.
     */
    public int detailedExitCode() {
        return (sum(ResourceStats::applies) > 0 ? 2 : 0) | exitCode() * 4;
    }

    public void text(PrintWriter out) {
        out.printf(Locale.ROOT, "%s on %s: %d resources for %dms, %s%n", noop ? "run (noop)" : "run", host, resources.size(), durationMs,
                converged ? "converged" : "not converged");
        out.printf(Locale.ROOT, "  checks %d, changes %d, failures %d; now: changed %d, stable %d, failed %d, skipped %d, pending %d%n",
                sum(ResourceStats::checks), sum(ResourceStats::applies), sum(ResourceStats::failures),
                count("changed"), count("stable"), count("failed"), count("skipped"), count("pending"));
        long failedReversals = reversed.stream().filter(r -> r.status() == Status.FAILED).count();
        if (!reversed.isEmpty()) out.printf(Locale.ROOT, "  reversed %d, of which failed %d%n", reversed.size(), failedReversals);
        out.flush();
    }

    public String json() {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("total", resources.size());
        for (Status s : Status.values()) summary.put(s.label(), count(s.label()));
        summary.put("pending", count("pending"));
        summary.put("checks", sum(ResourceStats::checks));
        summary.put("applies", sum(ResourceStats::applies));
        summary.put("failures", sum(ResourceStats::failures));
        List<Object> entries = new ArrayList<>();
        for (ResourceStats s : resources) {
            ResourceReport last = s.last();
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", s.id());
            entry.put("kind", s.kind());
            entry.put("status", status(s));
            entry.put("checks", s.checks());
            entry.put("applies", s.applies());
            entry.put("failures", s.failures());
            entry.put("changes", last == null ? List.of() : last.changedAttributes());
            entry.put("message", last == null ? null : last.message());
            entry.put("error", last == null ? null : last.error());
            entry.put("grouped", s.grouped());
            entries.add(entry);
        }
        Map<String, Object> doc = JsonDocument.create();
        doc.put("host", host);
        doc.put("mode", noop ? "noop" : "run");
        doc.put("converged", converged);
        doc.put("duration_ms", durationMs);
        doc.put("summary", summary);
        doc.put("resources", entries);
        List<Object> reversals = new ArrayList<>();
        for (ResourceReport r : reversed) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", r.id());
            entry.put("status", r.status().label());
            entry.put("changes", r.changedAttributes());
            entry.put("error", r.error());
            reversals.add(entry);
        }
        doc.put("reversed", reversals);
        return Json.pretty(doc) + "\n";
    }
}
