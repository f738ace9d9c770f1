package io.muster.coordinator.http;

import io.muster.coordinator.status.HostView;
import io.muster.coordinator.status.StatusJson;
import io.muster.engine.report.JsonDocument;
import io.muster.coordinator.deploy.DeploysJson;
import io.muster.coordinator.status.RolloutView;
import io.muster.proto.fleet.Deploy;
import io.muster.proto.fleet.Rollout;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The API's JSON documents. Their shapes are a contract, versioned by the path ({@code /api/v1/}) and the
 * {@code schema} field: fields are only ever added. A host's row is {@code muster status --output json}'s
 * host plus {@code assigned_deploy} (the deploy of the graph the coordinator pointed it at; null before its
 * first) and {@code state}; a deploy is {@code muster deploys --output json}'s ({@link DeploysJson}).
 */
final class ApiJson {
    private ApiJson() {}

    /** A host's row, without its state (which depends on the current deploy: {@link FleetFeed#row}). */
    static Map<String, Object> hostRow(HostView host) {
        Map<String, Object> row = StatusJson.host(host);
        row.put("assigned_deploy", host.pointer().map(p -> p.getDeploy() == 0 ? null : p.getDeploy()).orElse(null));
        return row;
    }

    /** {@code {"schema", "event", "current_deploy", "counts": {state: n}, "hosts": [row]}}: the rows that {@code state} admits (null: all). */
    static Map<String, Object> hosts(FleetFeed.Snapshot fleet, HostState only) {
        Map<HostState, Integer> counts = new EnumMap<>(HostState.class);
        for (HostState s : HostState.values()) counts.put(s, 0);
        List<Object> rows = new ArrayList<>();
        for (HostView host : fleet.hosts()) {
            HostState state = HostState.of(host, fleet.current());
            counts.merge(state, 1, Integer::sum);
            if (only == null || only == state) rows.add(FleetFeed.row(host, fleet.current()));
        }
        Map<String, Object> countsJson = new LinkedHashMap<>();
        counts.forEach((s, n) -> countsJson.put(s.label(), n));
        Map<String, Object> doc = JsonDocument.create();
        doc.put("event", fleet.event());
        doc.put("current_deploy", fleet.current() == 0 ? null : fleet.current());
        doc.put("counts", countsJson);
        doc.put("hosts", rows);
        return doc;
    }

    /**
     * {@code {"schema", "deploy", "current", "progress": {converged, failed, lost, applying, pending, total},
     * "hosts": [{"host", "progress", "state", "deploy", "failed", "error"}]}}: where each host is with the
     * deploy ({@link DeployProgress}); a deploy that goes out in waves adds {@code "rollout"} ({@link WavesJson}).
     */
    static Map<String, Object> deployProgress(Deploy deploy, FleetFeed.Snapshot fleet, Optional<Rollout> rollout) {
        Map<DeployProgress, Integer> counts = new EnumMap<>(DeployProgress.class);
        for (DeployProgress p : DeployProgress.values()) counts.put(p, 0);
        List<Object> hosts = new ArrayList<>();
        for (HostView host : fleet.hosts()) {
            DeployProgress progress = DeployProgress.of(host, deploy.getId());
            counts.merge(progress, 1, Integer::sum);
            Map<String, Object> row = FleetFeed.row(host, fleet.current());
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("host", host.host());
            one.put("progress", progress.label());
            one.put("state", row.get("state"));
            one.put("deploy", row.get("deploy"));
            one.put("failed", row.get("failed"));
            one.put("error", row.get("error"));
            hosts.add(one);
        }
        Map<String, Object> progress = new LinkedHashMap<>();
        counts.forEach((p, n) -> progress.put(p.label(), n));
        progress.put("total", fleet.hosts().size());
        Map<String, Object> doc = JsonDocument.create();
        doc.put("deploy", DeploysJson.entry(deploy));
        doc.put("current", fleet.current() == deploy.getId());
        doc.put("progress", progress);
        doc.put("hosts", hosts);
        if (rollout.isPresent()) {
            Map<String, HostView> byName = new HashMap<>();
            fleet.hosts().forEach(h -> byName.put(h.host(), h));
            Function<String, Optional<HostView>> lookup = name -> Optional.ofNullable(byName.get(name));
            doc.put("rollout", WavesJson.of(RolloutView.of(rollout.get(), lookup), lookup));
        }
        return doc;
    }

    /** {@code {"schema", "error"}}: every refusal, whatever its status code. */
    static Map<String, Object> error(String message) {
        Map<String, Object> doc = JsonDocument.create();
        doc.put("error", message);
        return doc;
    }
}
