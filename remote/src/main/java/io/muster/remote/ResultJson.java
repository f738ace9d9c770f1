package io.muster.remote;

import io.muster.engine.util.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The end of {@code muster remote --output json}, a document whose fields are only ever added to:
 * {@code {"schema": 1, "hosts": [{"name", "result", "changed", "failed", "seconds", "cache", "error"}]}}, hosts in the
 * order given; {@code result} is converged, failed or unreachable, {@code cache} uploaded, reused or null when the host
 * was not reached, {@code error} null when it converged.
 */
public final class ResultJson {
    static final int SCHEMA = 1;

    private ResultJson() {}

    public static String render(List<RemoteResult> results) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("hosts", results.stream().map(ResultJson::host).toList());
        return Json.pretty(doc) + "\n";
    }

    private static Map<String, Object> host(RemoteResult r) {
        Map<String, Object> host = new LinkedHashMap<>();
        host.put("name", r.name());
        host.put("result", r.result().word());
        host.put("changed", r.changed());
        host.put("failed", r.failed());
        host.put("seconds", Math.round(r.seconds() * 1000) / 1000.0);
        host.put("cache", r.cache());
        host.put("error", r.error());
        return host;
    }
}
