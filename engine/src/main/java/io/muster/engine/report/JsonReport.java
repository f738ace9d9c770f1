package io.muster.engine.report;

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
            entry.put("refreshed", r.refreshed());
            entry.put("message", r.message());
            entry.put("error", r.error());
            entry.put("duration_ms", r.durationMs());
            resources.add(entry);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("host", report.host());
        doc.put("mode", report.noop() ? "noop" : "apply");
        doc.put("duration_ms", report.durationMs());
        doc.put("summary", summary);
        doc.put("resources", resources);
        return Json.pretty(doc) + "\n";
    }
}
