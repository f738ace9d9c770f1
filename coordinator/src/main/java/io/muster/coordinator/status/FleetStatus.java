package io.muster.coordinator.status;

import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.proto.fleet.CurrentDeploy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What {@code muster status} shows: the current deploy and every host (or one), read at one revision, and what
 * each of them exports.
 *
 * @param current the current deploy; empty before the first
 * @param exports by host, the ids ({@code kind#name}) of what it exports, in key order
 */
public record FleetStatus(OptionalLong current, List<HostView> hosts, Map<String, List<String>> exports) {

    /** The fleet as etcd holds it now; only {@code host} when not null. */
    public static FleetStatus read(Etcd etcd, String host) throws EtcdUnreachableException {
        HostTable table = new HostTable();
        long revision = Pages.forEach(etcd, host == null ? Keys.HOSTS : Keys.host(host), table::put);
        GetResponse current = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY, GetOption.builder().withRevision(revision).build()));
        OptionalLong id = current.getKvs().isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(Stored.parse(CurrentDeploy.parser(), current.getKvs().getFirst()).getId());
        Map<String, List<String>> exports = new HashMap<>();
        Pages.forEach(etcd, Keys.EXPORTED, kv -> {
            Keys.ExportKey key = Keys.parseExportKey(kv.getKey());
            if (key != null && (host == null || host.equals(key.host()))) {
                exports.computeIfAbsent(key.host(), h -> new ArrayList<>()).add(key.kind() + "#" + key.name());
            }
        });
        return new FleetStatus(id, table.hosts(), exports);
    }

    /** The ids ({@code kind#name}) of what {@code host} exports. */
    public List<String> exportsOf(String host) {
        return exports.getOrDefault(host, List.of());
    }
}
