package io.muster.coordinator.status;

import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.engine.exports.ExportedResource;
import io.muster.proto.fleet.Collected;
import io.muster.proto.fleet.HostStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code muster exports} shows: every export in etcd (of one kind, or all), and which hosts collected or
 * rejected it, as their statuses say.
 */
public record FleetExports(List<Row> exports) {

    /**
     * One export.
     *
     * @param resource what it holds; null when it cannot be read ({@code unreadable} says why)
     * @param collectedBy the hosts that apply it
     * @param rejectedBy each host that matched it and would not apply it, with why
     */
    public record Row(String kind, String exporter, String name, ExportedResource resource, String unreadable,
                      List<String> collectedBy, List<Rejection> rejectedBy) {}

    /** A collector that matched an export and would not apply it: the rule it breaks, or the conflict. */
    public record Rejection(String host, String why) {}

    /** The exports etcd holds now, of {@code kind} only when not null, sorted by kind, exporter and name. */
    public static FleetExports read(Etcd etcd, String kind) throws EtcdUnreachableException {
        List<Row> rows = new ArrayList<>();
        List<HostView> hosts = FleetStatus.read(etcd, null).hosts();
        Pages.forEach(etcd, kind == null ? Keys.EXPORTED : Keys.exportedKind(kind), kv -> {
            Keys.ExportKey key = Keys.parseExportKey(kv.getKey());
            if (key == null) return;
            ExportedResource resource = null;
            String unreadable = null;
            try {
                resource = ExportedResource.decode(kv.getValue().toString(StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                unreadable = e.getMessage();
            }
            List<String> collectedBy = new ArrayList<>();
            List<Rejection> rejectedBy = new ArrayList<>();
            for (HostView host : hosts) {
                for (Collected c : host.status().map(HostStatus::getCollectedList).orElse(List.of())) {
                    if (!c.getKind().equals(key.kind()) || !c.getExporter().equals(key.host()) || !c.getName().equals(key.name())) continue;
                    if (c.getRejected().isEmpty()) collectedBy.add(host.host());
                    else rejectedBy.add(new Rejection(host.host(), c.getRejected()));
                }
            }
            rows.add(new Row(key.kind(), key.host(), key.name(), resource, unreadable, collectedBy, rejectedBy));
        });
        return new FleetExports(rows);
    }
}
