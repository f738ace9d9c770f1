package io.muster.coordinator.status;

import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.proto.fleet.CurrentDeploy;
import java.util.List;
import java.util.OptionalLong;

/**
 * What {@code muster status} shows: the current deploy and every host (or one), read at one revision.
 *
 * @param current the current deploy; empty before the first
 */
public record FleetStatus(OptionalLong current, List<HostView> hosts) {

    /** The fleet as etcd holds it now; only {@code host} when not null. */
    public static FleetStatus read(Etcd etcd, String host) throws EtcdUnreachableException {
        HostTable table = new HostTable();
        long revision = Pages.forEach(etcd, host == null ? Keys.HOSTS : Keys.host(host), table::put);
        GetResponse current = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY, GetOption.builder().withRevision(revision).build()));
        OptionalLong id = current.getKvs().isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(Stored.parse(CurrentDeploy.parser(), current.getKvs().getFirst()).getId());
        return new FleetStatus(id, table.hosts());
    }
}
