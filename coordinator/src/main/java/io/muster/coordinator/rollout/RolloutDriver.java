package io.muster.coordinator.rollout;

import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Stored;
import io.muster.coordinator.status.HostTable;
import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leading coordinator's side of the current deploy's rollout, for one term: which deploy each host is
 * compiled against (the new one once its wave started, else the previous one), and the rollout's next step as the
 * hosts' keys change ({@link RolloutStep}), written in a transaction on the rollout as read and on the election
 * key. Everything it knows comes from etcd (the leader's listing and watch), so a new leader takes the rollout up
 * where the last one left it: the same wave, its hosts already pointed at the new deploy left as they are.
 *
 * <p>Called from the leader's event thread, except {@link #deployFor}, which the compile threads call.
 */
public final class RolloutDriver {
    private static final Logger LOG = LoggerFactory.getLogger(RolloutDriver.class);

    /** A rollout as last read, its key's revision, and the hosts of its waves started. */
    private record Known(Rollout rollout, long revision, Set<String> reached) {
        static Known of(Rollout rollout, long revision) {
            Set<String> reached = new HashSet<>();
            for (int i = 0; i <= rollout.getWave() && i < rollout.getWavesCount(); i++) reached.addAll(rollout.getWaves(i).getHostsList());
            return new Known(rollout, revision, reached);
        }
    }

    private final Etcd etcd;
    private final LeaderFence fence;
    private final Clock clock;
    private HostTable hosts = new HostTable();
    private volatile long current; // the current deploy; 0: none
    private volatile Known known; // its rollout; null when it has none

    public RolloutDriver(Etcd etcd, LeaderFence fence, Clock clock) {
        this.etcd = etcd;
        this.fence = fence;
        this.clock = clock;
    }

    /** A new listing of the hosts begins. */
    public void relist() {
        hosts = new HostTable();
    }

    /** A key under {@code hosts/}, from the listing or the watch. */
    public void host(KeyValue kv, boolean deleted) {
        try {
            if (deleted) hosts.delete(kv);
            else hosts.put(kv);
        } catch (Stored.CorruptKeyException e) {
            hosts.delete(kv); // counts as none: the leader writes a pointer anew, an agent its status
        }
    }

    /**
     * The current deploy is {@code deploy} (0: none) as of {@code revision}: reads its rollout as it was then,
     * written in the transaction that made it current. Until this returns, hosts are compiled as before.
     */
    public void follow(long deploy, long revision) throws EtcdUnreachableException {
        Known rollout = null;
        if (deploy != 0) {
            List<KeyValue> kvs = etcd.await(etcd.kv().get(Keys.rollout(deploy), GetOption.builder().withRevision(revision).build())).getKvs();
            if (!kvs.isEmpty()) rollout = Known.of(Stored.parse(Rollout.parser(), kvs.getFirst()), kvs.getFirst().getModRevision());
        }
        synchronized (this) { // compile threads see the deploy and its rollout together
            known = rollout;
            current = deploy;
        }
        if (rollout != null) LOG.info("deploy {} goes out in waves: {}", deploy, summary(rollout.rollout));
    }

    /**
     * A key under {@code rollouts/} changed; returns true when it is the current deploy's rollout and newer than
     * known (which hosts get the new deploy may have changed).
     */
    public boolean rolloutChanged(KeyValue kv, boolean deleted) {
        Known now = known;
        if (Keys.parseRollout(kv.getKey()) != current || now != null && kv.getModRevision() <= now.revision) return false;
        Rollout rollout = deleted ? null : Stored.parse(Rollout.parser(), kv);
        if (rollout != null && (rollout.getState() == RolloutState.SUPERSEDED || rollout.getState() == RolloutState.ROLLED_BACK)) {
            return false; // written with another current deploy, which comes next: until then, hosts keep what they have
        }
        known = rollout == null ? null : Known.of(rollout, kv.getModRevision());
        return true;
    }

    /** The deploy {@code host} is compiled against; 0: none (a host not reached by the first deploy's rollout, or no deploy). */
    public long deployFor(String host) {
        long deploy;
        Known now;
        synchronized (this) {
            deploy = current;
            now = known;
        }
        if (now == null || !Rollouts.active(now.rollout) || now.reached.contains(host)) return deploy;
        return now.rollout.getPrevious();
    }

    /**
     * Takes the rollout's next step, if any is due; returns true when it wrote one (which hosts get the new deploy
     * may have changed).
     */
    public boolean check() throws EtcdUnreachableException {
        Known now = known;
        if (now == null) return false;
        Optional<Rollout> next = RolloutStep.next(now.rollout, hosts, clock.millis());
        if (next.isEmpty()) return false;
        TxnResponse response = etcd.await(etcd.kv().txn()
                .If(fence.stillLeader(), new Cmp(Keys.rollout(now.rollout.getDeploy()), Cmp.Op.EQUAL, CmpTarget.modRevision(now.revision)))
                .Then(Op.put(Keys.rollout(now.rollout.getDeploy()), Rollouts.value(next.get()), PutOption.DEFAULT))
                .Else(Op.get(fence.key(), GetOption.DEFAULT))
                .commit());
        if (!response.isSucceeded()) {
            List<KeyValue> leader = response.getGetResponses().getFirst().getKvs();
            if (leader.isEmpty() || leader.getFirst().getCreateRevision() != fence.revision()) fence.end("another coordinator leads");
            return false; // else the rollout changed (resumed, rolled back): the watch brings it
        }
        if (known == now) known = Known.of(next.get(), response.getHeader().getRevision());
        LOG.info("deploy {}: {}", next.get().getDeploy(), summary(next.get()));
        return true;
    }

    /** Milliseconds until the wave under way times out; {@link Long#MAX_VALUE} when it cannot. */
    public long millisToDeadline() {
        Known now = known;
        if (now == null) return Long.MAX_VALUE;
        long deadline = RolloutStep.deadline(now.rollout);
        return deadline == Long.MAX_VALUE ? deadline : Math.max(0, deadline - clock.millis());
    }

    private static String summary(Rollout rollout) {
        String state = rollout.getState().name().toLowerCase(java.util.Locale.ROOT);
        if (!Rollouts.active(rollout)) return state;
        String line = state + " at wave " + (rollout.getWave() + 1) + " of " + rollout.getWavesCount()
                + " (" + rollout.getWaves(rollout.getWave()).getHostsCount() + " hosts)";
        return rollout.getReason().isEmpty() ? line : line + ": " + rollout.getReason();
    }
}
