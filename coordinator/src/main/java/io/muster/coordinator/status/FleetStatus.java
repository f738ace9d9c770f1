package io.muster.coordinator.status;

import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.proto.fleet.CurrentDeploy;
import io.muster.proto.fleet.Rollout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What {@code muster status} shows: the current deploy and every host (or one), read at one revision, and what
 * each of them exports.
 *
 * @param current the current deploy; empty before the first
 * @param exports by host, the ids ({@code kind#name}) of what it exports, in key order
 * @param rollout the current deploy's rollout (with every host's progress, whatever {@code host}); empty when it has none
 */
public record FleetStatus(OptionalLong current, List<HostView> hosts, Map<String, List<String>> exports, Optional<RolloutView> rollout) {

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
        Optional<RolloutView> rollout = Optional.empty();
        if (id.isPresent()) {
            GetResponse stored = etcd.await(etcd.kv().get(Keys.rollout(id.getAsLong()), GetOption.builder().withRevision(revision).build()));
            if (!stored.getKvs().isEmpty()) {
                HostTable all = host == null ? table : new HostTable(); // a rollout's progress is the whole fleet's
                if (host != null) Pages.forEach(etcd, Keys.HOSTS, all::put);
                rollout = Optional.of(RolloutView.of(Stored.parse(Rollout.parser(), stored.getKvs().getFirst()), all::host));
            }
        }
        return new FleetStatus(id, table.hosts(), exports, rollout);
    }

    /** The ids ({@code kind#name}) of what {@code host} exports. */
    public List<String> exportsOf(String host) {
        return exports.getOrDefault(host, List.of());
    }
}
