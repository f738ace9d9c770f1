package io.muster.engine.report;

import io.muster.engine.health.HealthResult;
import io.muster.engine.health.HealthStatus;
import io.muster.engine.resource.Change;
import io.muster.engine.util.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code --output json} document. Its shape is a contract: add fields, never rename them. */
public final class JsonReport {
    private JsonReport() {}

    public static String render(Report report) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("total", report.resources().size());
        for (Status s : Status.values()) summary.put(s.label(), report.count(s));
        summary.put("refreshed", report.refreshed());
        List<Object> resources = new ArrayList<>();
        for (ResourceReport r : report.resources()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", r.id());
            entry.put("status", r.status().label());
            entry.put("changes", r.changedAttributes());
            entry.put("details", r.changes().stream().map(JsonReport::change).toList());
            entry.put("refreshed", r.refreshed());
            entry.put("message", r.message());
            entry.put("error", r.error());
            entry.put("duration_ms", r.durationMs());
            entry.put("manifest", r.manifest());
            entry.put("grouped", r.grouped());
            entry.put("health_checks", r.healthChecks().stream().map(JsonReport::healthCheck).toList());
            resources.add(entry);
        }
        Map<String, Object> doc = JsonDocument.create();
        doc.put("host", report.host());
        doc.put("mode", report.mode());
        doc.put("duration_ms", report.durationMs());
        if (report.graphCache() != null) doc.put("graph_cache", report.graphCache());
        doc.put("summary", summary);
        Map<String, Object> health = new LinkedHashMap<>();
        for (HealthStatus s : HealthStatus.values()) health.put(s.label(), report.count(s));
        doc.put("health_checks", health);
        doc.put("resources", resources);
        return Json.pretty(doc) + "\n";
    }

    /** An attribute's value before and after (null when absent or not shown), and a content change's unified diff. */
    private static Map<String, Object> change(Change c) {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("attribute", c.attribute());
        change.put("before", c.from());
        change.put("after", c.to());
        change.put("diff", c.diff());
        return change;
    }

    private static Map<String, Object> healthCheck(HealthResult r) {
        Map<String, Object> check = new LinkedHashMap<>();
        check.put("name", r.name());
        check.put("status", r.status().label());
        check.put("output", r.output());
        check.put("tries", r.tries());
        return check;
    }
}
