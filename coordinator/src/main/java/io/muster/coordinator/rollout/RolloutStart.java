package io.muster.coordinator.rollout;

import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.deploy.Deployer;
import io.muster.coordinator.etcd.Stored;
import io.muster.proto.fleet.CurrentDeploy;
import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import io.muster.proto.fleet.Wave;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a deploy writes about rollouts in the transaction that makes it current, which also compares the current
 * deploy and its rollout as read: its own rollout (its waves, the first started), and a running or stalled
 * rollout of the deploy it replaces marked superseded. Hosts its rollout has not reached keep the previous
 * deploy: the one that was current, or when that one's rollout had not finished, the deploy its own unreached
 * hosts kept (so a fix deployed over a stalled rollout does not take the stalled deploy to every host).
 */
public final class RolloutStart implements Deployer.Claim {
    private final Etcd etcd;
    private final RolloutSpec spec;
    private final Map<String, Map<String, Object>> hosts;
    private final Clock clock;

    private RolloutStart(Etcd etcd, RolloutSpec spec, Map<String, Map<String, Object>> hosts, Clock clock) {
        this.etcd = etcd;
        this.spec = spec;
        this.hosts = hosts;
        this.clock = clock;
    }

    /** @param spec null for a deploy that goes to every host at once */
    public static RolloutStart of(Etcd etcd, RolloutSpec spec, Clock clock) throws EtcdUnreachableException {
        return new RolloutStart(etcd, spec, spec == null ? Map.of() : LiveHosts.read(etcd), clock);
    }

    @Override
    public Deployer.Extra extra(long id) throws EtcdUnreachableException {
        List<Cmp> compares = new ArrayList<>();
        List<Op> puts = new ArrayList<>();
        Optional<KeyValue> currentKv = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY)).getKvs().stream().findFirst();
        compares.add(new Cmp(Keys.CURRENT_DEPLOY, Cmp.Op.EQUAL, CmpTarget.modRevision(currentKv.map(KeyValue::getModRevision).orElse(0L))));
        long current = currentKv.map(kv -> Stored.parse(CurrentDeploy.parser(), kv).getId()).orElse(0L);
        long previous = current;
        if (current != 0) {
            Optional<KeyValue> old = Rollouts.stored(etcd, current);
            compares.add(new Cmp(Keys.rollout(current), Cmp.Op.EQUAL, CmpTarget.modRevision(old.map(KeyValue::getModRevision).orElse(0L))));
            Optional<Rollout> rollout = old.map(kv -> Stored.parse(Rollout.parser(), kv));
            if (rollout.isPresent() && Rollouts.active(rollout.get())) {
                previous = rollout.get().getPrevious();
                puts.add(Op.put(Keys.rollout(current), Rollouts.value(rollout.get().toBuilder().setState(RolloutState.SUPERSEDED)
                        .setReason("superseded by deploy " + id).setUpdated(clock.millis()).build()), PutOption.DEFAULT));
            }
        }
        if (spec != null) puts.add(Op.put(Keys.rollout(id), Rollouts.value(rollout(id, previous)), PutOption.DEFAULT));
        return new Deployer.Extra(compares, puts);
    }

    private Rollout rollout(long id, long previous) {
        long now = clock.millis();
        List<Wave> waves = new ArrayList<>(WavePlanner.plan(spec, hosts));
        if (!waves.isEmpty()) waves.set(0, waves.getFirst().toBuilder().setStarted(now).build());
        return Rollout.newBuilder().setDeploy(id).setPrevious(previous).setState(waves.isEmpty() ? RolloutState.DONE : RolloutState.RUNNING)
                .addAllWaves(waves).setWaveTimeout(spec.waveTimeout().toMillis()).setOrderBy(spec.orderBy() == null ? "" : spec.orderBy())
                .setUpdated(now).build();
    }
}
