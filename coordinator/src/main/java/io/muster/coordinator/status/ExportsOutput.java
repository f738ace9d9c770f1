package io.muster.coordinator.status;

import io.muster.engine.report.JsonDocument;
import io.muster.engine.util.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code muster exports}, as text (a line per export: kind, exporter, name, who may collect it, tags, who
 * collected it; each rejection indented below) or JSON, whose shape is a contract (fields are only ever added):
 * {@code {"exports": [{"kind", "exporter", "name", "to", "tags", "params", "error", "collected_by": [host],
 * "rejected_by": [{"host", "why"}]}]}}; {@code to}, {@code tags} and {@code params} are null and {@code error}
 * says why when the export cannot be read.
 */
public final class ExportsOutput {
    private static final List<String> HEADER = List.of("KIND", "EXPORTER", "NAME", "TO", "TAGS", "COLLECTED BY");

    private ExportsOutput() {}

    public static String text(FleetExports exports) {
        if (exports.exports().isEmpty()) return "no exports\n";
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (FleetExports.Row r : exports.exports()) {
            rows.add(List.of(r.kind(), r.exporter(), r.name(), r.resource() == null ? "?" : listed(r.resource().to(), "any host"),
                    r.resource() == null ? "?" : listed(r.resource().tags(), "-"), listed(r.collectedBy(), "-")));
        }
        Columns columns = new Columns(rows);
        StringBuilder out = new StringBuilder();
        for (int n = 0; n < rows.size(); n++) {
            out.append(columns.line(rows.get(n)));
            if (n == 0) continue;
            FleetExports.Row r = exports.exports().get(n - 1);
            if (r.unreadable() != null) out.append("  unreadable: ").append(r.unreadable()).append('\n');
            for (FleetExports.Rejection rejection : r.rejectedBy()) {
                out.append("  rejected by ").append(rejection.host()).append(": ").append(rejection.why()).append('\n');
            }
        }
        return out.toString();
    }

    public static String json(FleetExports exports) {
        List<Object> rows = new ArrayList<>();
        for (FleetExports.Row r : exports.exports()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("kind", r.kind());
            row.put("exporter", r.exporter());
            row.put("name", r.name());
            row.put("to", r.resource() == null ? null : r.resource().to());
            row.put("tags", r.resource() == null ? null : r.resource().tags());
            row.put("params", r.resource() == null ? null : r.resource().params());
            row.put("error", r.unreadable());
            row.put("collected_by", r.collectedBy());
            List<Object> rejected = new ArrayList<>();
            for (FleetExports.Rejection rejection : r.rejectedBy()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("host", rejection.host());
                one.put("why", rejection.why());
                rejected.add(one);
            }
            row.put("rejected_by", rejected);
            rows.add(row);
        }
        Map<String, Object> doc = JsonDocument.create();
        doc.put("exports", rows);
        return Json.pretty(doc) + "\n";
    }

    private static String listed(List<String> items, String none) {
        return items.isEmpty() ? none : String.join(",", items);
    }
}
