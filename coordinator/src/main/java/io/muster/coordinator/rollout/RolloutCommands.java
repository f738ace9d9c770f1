package io.muster.coordinator.rollout;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.deploy.DeployException;
import io.muster.coordinator.deploy.DeployHistory;
import io.muster.coordinator.etcd.Stored;
import io.muster.proto.fleet.CurrentDeploy;
import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The operator's writes to a rollout, each a transaction on it and on the current deploy as read: {@code deploy
 * --resume} (the halted wave is checked again from now, and the rollout goes on), and {@code rollback} of a
 * deploy still going out (the hosts it reached return to the previous deploy, the one the others kept).
 */
public final class RolloutCommands {
    private final Etcd etcd;
    private final Clock clock;

    public RolloutCommands(Etcd etcd, Clock clock) {
        this.etcd = etcd;
        this.clock = clock;
    }

    /**
     * Resumes deploy {@code deploy}'s stalled rollout; returns it as written.
     *
     * @throws DeployException when the deploy is not current, went out at once, or its rollout is not stalled
     */
    public Rollout resume(long deploy) throws EtcdUnreachableException, DeployException {
        while (true) {
            KeyValue currentKv = current().orElseThrow(() -> new DeployException("nothing to resume: no deploy yet"));
            long current = Stored.parse(CurrentDeploy.parser(), currentKv).getId();
            if (current != deploy) throw new DeployException("cannot resume deploy " + deploy + ": deploy " + current + " is current");
            KeyValue kv = Rollouts.stored(etcd, deploy).orElseThrow(() -> new DeployException("deploy " + deploy + " went to every host at once: nothing to resume"));
            Rollout rollout = Stored.parse(Rollout.parser(), kv);
            if (rollout.getState() != RolloutState.STALLED) {
                throw new DeployException("cannot resume deploy " + deploy + ": its rollout is " + rollout.getState().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
            }
            long now = clock.millis();
            Rollout resumed = rollout.toBuilder().setState(RolloutState.RUNNING).clearReason().setUpdated(now)
                    .setWaves(rollout.getWave(), rollout.getWaves(rollout.getWave()).toBuilder().setStarted(now).clearFailed().clearPending()).build();
            if (write(currentKv, kv, Op.put(Keys.rollout(deploy), Rollouts.value(resumed), PutOption.DEFAULT))) return resumed;
        }
    }

    /**
     * {@code muster rollback}: when the current deploy's rollout runs or is stalled, the previous deploy (or
     * {@code to}) becomes current and the rollout is marked rolled back; otherwise as {@link DeployHistory#rollback}.
     */
    public DeployHistory.Rollback rollback(OptionalLong to) throws EtcdUnreachableException, DeployException {
        return rollback(0, to);
    }

    /**
     * The API's rollback: as {@link #rollback}, of deploy {@code of}, which must be current.
     *
     * @throws DeployException when it is not (any more)
     */
    public DeployHistory.Rollback rollbackOf(long of) throws EtcdUnreachableException, DeployException {
        return rollback(of, OptionalLong.empty());
    }

    /** @param of the deploy that must be current; 0: any */
    private DeployHistory.Rollback rollback(long of, OptionalLong to) throws EtcdUnreachableException, DeployException {
        DeployHistory history = new DeployHistory(etcd);
        while (true) {
            Optional<KeyValue> currentKv = current();
            if (currentKv.isEmpty()) return of == 0 ? history.rollback(to) : history.rollbackOf(of);
            long current = Stored.parse(CurrentDeploy.parser(), currentKv.get()).getId();
            Optional<KeyValue> kv = Rollouts.stored(etcd, current);
            Optional<Rollout> rollout = kv.map(r -> Stored.parse(Rollout.parser(), r));
            if (rollout.isEmpty() || !Rollouts.active(rollout.get())) return of == 0 ? history.rollback(to) : history.rollbackOf(of);
            if (of != 0 && current != of) throw new DeployException("deploy " + of + " is not the current deploy (" + current + " is)");
            long target = to.isPresent() ? to.getAsLong() : rollout.get().getPrevious();
            if (target == 0) throw new DeployException("nothing to roll back to: deploy " + current + " went out with no deploy before it");
            if (history.get(target).isEmpty()) throw new DeployException("no deploy " + target + " (see muster deploys)");
            if (target == current) return new DeployHistory.Rollback(current, target);
            Rollout rolledBack = rollout.get().toBuilder().setState(RolloutState.ROLLED_BACK).setReason("rolled back to deploy " + target)
                    .setUpdated(clock.millis()).build();
            if (write(currentKv.get(), kv.get(), Op.put(Keys.rollout(current), Rollouts.value(rolledBack), PutOption.DEFAULT),
                    Op.put(Keys.CURRENT_DEPLOY, ByteSequence.from(CurrentDeploy.newBuilder().setId(target).build().toByteArray()), PutOption.DEFAULT))) {
                return new DeployHistory.Rollback(current, target);
            }
        }
    }

    private Optional<KeyValue> current() throws EtcdUnreachableException {
        return etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY)).getKvs().stream().findFirst();
    }

    /** {@code puts}, if the current deploy and the rollout are still as read. */
    private boolean write(KeyValue current, KeyValue rollout, Op... puts) throws EtcdUnreachableException {
        return etcd.await(etcd.kv().txn()
                .If(new Cmp(Keys.CURRENT_DEPLOY, Cmp.Op.EQUAL, CmpTarget.modRevision(current.getModRevision())),
                        new Cmp(rollout.getKey(), Cmp.Op.EQUAL, CmpTarget.modRevision(rollout.getModRevision())))
                .Then(puts).commit()).isSucceeded();
    }
}
