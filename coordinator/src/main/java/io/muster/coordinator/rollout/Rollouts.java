package io.muster.coordinator.rollout;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.coordinator.status.HostTable;
import io.muster.coordinator.status.RolloutView;
import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import java.util.Optional;

/** Reading rollouts ({@code rollouts/<id>}): what the deploy commands and the HTTP API show. */
public final class Rollouts {
    private Rollouts() {}

    /** Deploy {@code deploy}'s rollout as stored; empty when it went out at once. */
    public static Optional<Rollout> read(Etcd etcd, long deploy) throws EtcdUnreachableException {
        return stored(etcd, deploy).map(kv -> Stored.parse(Rollout.parser(), kv));
    }

    /** Deploy {@code deploy}'s rollout with each wave's hosts as their keys say now; empty when it went out at once. */
    public static Optional<RolloutView> view(Etcd etcd, long deploy) throws EtcdUnreachableException {
        Optional<Rollout> rollout = read(etcd, deploy);
        if (rollout.isEmpty()) return Optional.empty();
        HostTable hosts = new HostTable();
        Pages.forEach(etcd, Keys.HOSTS, hosts::put);
        return Optional.of(RolloutView.of(rollout.get(), hosts::host));
    }

    static Optional<KeyValue> stored(Etcd etcd, long deploy) throws EtcdUnreachableException {
        return etcd.await(etcd.kv().get(Keys.rollout(deploy))).getKvs().stream().findFirst();
    }

    /** Whether hosts not reached yet keep the previous deploy: the rollout runs or is stalled. */
    static boolean active(Rollout rollout) {
        return rollout.getState() == RolloutState.RUNNING || rollout.getState() == RolloutState.STALLED;
    }

    static ByteSequence value(Rollout rollout) {
        return ByteSequence.from(rollout.toByteArray());
    }
}
