package io.muster.coordinator.deploy;

import io.muster.engine.report.JsonDocument;
import io.muster.proto.fleet.Deploy;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The deploy history as {@code muster deploys --output json} and the API's {@code /api/v1/deploys} write it; a
 * contract (fields are only ever added): {@code {"schema", "current", "deploys": [{"id", "time", "who",
 * "message", "manifest", "files"}]}}, oldest first, {@code current} null before the first deploy.
 */
public final class DeploysJson {
    private DeploysJson() {}

    public static Map<String, Object> document(OptionalLong current, List<Deploy> deploys) {
        Map<String, Object> doc = JsonDocument.create();
        doc.put("current", current.isPresent() ? current.getAsLong() : null);
        doc.put("deploys", deploys.stream().map(DeploysJson::entry).toList());
        return doc;
    }

    /** One deploy: its time in ISO-8601 UTC, {@code files} the number of files in its bundle. */
    public static Map<String, Object> entry(Deploy d) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", d.getId());
        entry.put("time", Instant.ofEpochMilli(d.getCreated()).toString());
        entry.put("who", d.getWho());
        entry.put("message", d.getMessage());
        entry.put("manifest", d.getManifest());
        entry.put("files", d.getFilesCount());
        return entry;
    }
}
