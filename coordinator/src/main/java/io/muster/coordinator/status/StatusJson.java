package io.muster.coordinator.status;

import io.muster.engine.report.JsonDocument;
import io.muster.engine.util.Json;
import io.muster.proto.fleet.Collected;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Summary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code muster status --output json}. Its shape is a contract (add fields, never rename them):
 * {@code {"schema": 1, "current_deploy": N, "hosts": [{"host", "alive", "deploy", "graph", "converged", "summary", "failed":
 * [{"id", "error"}], "error", "updated", "collected": [{"id", "kind", "exporter", "name", "rejected"}],
 * "exports"}]}}; what a host has not reported yet is null ({@code converged} false, {@code failed} and {@code collected} empty), and
 * so is {@code deploy} while it runs none; {@code updated} is its last report's time in ISO-8601 UTC; {@code
 * collected} lists the exports of other hosts it matched, {@code rejected} saying why when it did not apply one;
 * {@code exports} the ids ({@code kind#name}) of what it exports (not in {@code deploy --wait}'s hosts); {@code rollout}
 * the current deploy's waves ({@link RolloutJson}), null when it went out at once.
 */
public final class StatusJson {
    private StatusJson() {}

    public static String render(FleetStatus fleet) {
        List<Object> hosts = new ArrayList<>();
        for (HostView host : fleet.hosts()) {
            Map<String, Object> one = host(host);
            one.put("exports", fleet.exportsOf(host.host()));
            hosts.add(one);
        }
        Map<String, Object> doc = JsonDocument.create();
        doc.put("current_deploy", fleet.current().isPresent() ? fleet.current().getAsLong() : null);
        doc.put("hosts", hosts);
        doc.put("rollout", fleet.rollout().map(RolloutJson::of).orElse(null));
        return Json.pretty(doc) + "\n";
    }

    /** One host of the document; also {@code deploy --wait --output json}'s. */
    public static Map<String, Object> host(HostView view) {
        HostStatus status = view.status().orElse(null);
        Map<String, Object> host = new LinkedHashMap<>();
        host.put("host", view.host());
        host.put("alive", view.alive());
        host.put("deploy", status == null || status.getDeploy() == 0 ? null : status.getDeploy());
        host.put("graph", status == null || status.getGraph().isEmpty() ? null : status.getGraph());
        host.put("converged", status != null && status.getConverged());
        host.put("summary", status == null ? null : summary(status.getSummary()));
        List<Object> failed = new ArrayList<>();
        if (status != null) {
            status.getFailedList().forEach(f -> failed.add(failure(f.getId(), f.getError())));
        }
        host.put("failed", failed);
        host.put("error", view.error());
        host.put("updated", status == null || status.getUpdated() == 0 ? null : Instant.ofEpochMilli(status.getUpdated()).toString());
        List<Object> collected = new ArrayList<>();
        if (status != null) {
            for (Collected c : status.getCollectedList()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("id", c.getId());
                one.put("kind", c.getKind());
                one.put("exporter", c.getExporter());
                one.put("name", c.getName());
                one.put("rejected", c.getRejected().isEmpty() ? null : c.getRejected());
                collected.add(one);
            }
        }
        host.put("collected", collected);
        return host;
    }

    /** The counts of apply's JSON report ({@code total} and one per status), then the live run's. */
    private static Map<String, Object> summary(Summary s) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("total", s.getTotal());
        summary.put("changed", s.getChanged());
        summary.put("stable", s.getStable());
        summary.put("failed", s.getFailed());
        summary.put("skipped", s.getSkipped());
        summary.put("unresolvable", s.getUnresolvable());
        summary.put("pending", s.getPending());
        summary.put("checks", s.getChecks());
        summary.put("applies", s.getApplies());
        summary.put("failures", s.getFailures());
        return summary;
    }

    private static Map<String, Object> failure(String id, String error) {
        Map<String, Object> failure = new LinkedHashMap<>();
        failure.put("id", id);
        failure.put("error", error);
        return failure;
    }
}
