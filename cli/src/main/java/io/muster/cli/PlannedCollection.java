package io.muster.cli;

import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.engine.exports.Collected;
import io.muster.engine.exports.CollectedGraph;
import io.muster.engine.graph.Collect;
import io.muster.engine.graph.Graph;
import io.muster.engine.resource.Kinds;
import io.muster.engine.world.World;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code plan} shows of a manifest's {@code collect} blocks: with a fleet given ({@code --etcd} or {@code
 * $MUSTER_ETCD}), the exports of other hosts etcd holds now, joined as this host's agent would join them
 * (rejections on stderr; an export bound to no lease is left out, as agents leave it); without, nothing, and it
 * says so.
 */
final class PlannedCollection {
    private PlannedCollection() {}

    /** @param host the host planned for: its own exports are not collected */
    static Graph join(Graph compiled, FleetOptions fleet, String host, PrintWriter err) throws InterruptedException {
        if (compiled.collects().isEmpty()) return compiled;
        if (fleet.endpoints == null && System.getenv("MUSTER_ETCD") == null) {
            err.println("muster: collect: no fleet given (--etcd, $MUSTER_ETCD): nothing collected; an agent collects what other hosts export");
            return compiled;
        }
        try (Etcd etcd = Etcd.connect(fleet.etcd())) {
            Map<String, List<World.Exported>> exports = new HashMap<>();
            for (Collect block : compiled.collects()) {
                if (exports.containsKey(block.kind())) continue;
                List<World.Exported> ofKind = new ArrayList<>();
                Pages.forEach(etcd, Keys.exportedKind(block.kind()), kv -> {
                    Keys.Export key = Keys.parseExported(block.kind(), kv.getKey());
                    if (key != null && kv.getLease() != 0) ofKind.add(new World.Exported(key.host(), block.kind(), key.name(), kv.getValue().toString(StandardCharsets.UTF_8)));
                });
                exports.put(block.kind(), ofKind);
            }
            CollectedGraph.Result joined = CollectedGraph.of(compiled, host, exports, Kinds.installed());
            for (Collected c : joined.collected()) if (!c.applied()) err.println("muster: collect: rejected " + c.id() + ": " + c.rejected());
            return joined.graph();
        } catch (EtcdUnreachableException e) {
            err.println("muster: collect: " + e.getMessage() + "; nothing collected");
            return compiled;
        }
    }
}
