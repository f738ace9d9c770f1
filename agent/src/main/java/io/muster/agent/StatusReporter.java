package io.muster.agent;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.etcd.Waits;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Summary;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Writes the host's status ({@code hosts/<host>/status}) on each transition: when being converged, the
 * counts by status, the failures or the error change, not on every check (the running counters of checks,
 * applies and failures go along, as they are when written). Nudged from any thread ({@link #changed()}); a
 * thread of its own computes the status and writes it, so nudges coalesce: it lets {@link #GATHER} pass after a
 * nudge before it looks, so the transitions of one moment (a graph swapped in and its first resources
 * applied) make one write, not one each.
 *
 * <p>A status that says converged, names a failure or an error the last one written did not, or is the first, is
 * written at once: {@code deploy --wait}, {@code status} and rollouts wait for those. One that only says the host
 * is at work (not converged, nothing newly failed) waits up to {@link #HOLD} for the host to converge, and is
 * written then if it has not: a deploy that converges within it is one write, not two or three, each of which
 * every coordinator watching {@code hosts/} receives too. Nor is a converged host's resource checked again after
 * its change (the check its own write sets off), and found stable, news; a change made since the last write is
 * (a drift repaired: the host converges again, with one more apply), so the status tells when the host last
 * repaired something, though its counts by status came back as they were. Each write is a transaction on the
 * key's revision (what this reporter last wrote, or found): a status etcd lost, or another writer's, is seen
 * and replaced. While etcd is away it tries again after a jittered backoff.
 */
final class StatusReporter implements AutoCloseable {
    /** Short beside the agent's quiet period, which any "converged" waits for anyway. */
    static final Duration GATHER = Duration.ofMillis(50);
    /** How long a host at work (not converged, nothing newly failed) may still show its last status. */
    static final Duration HOLD = Duration.ofSeconds(5);
    private final Etcd etcd;
    private final ByteSequence key;
    private final Supplier<HostStatus> status;
    private final BooleanSupplier registered;
    private final Backoff backoff;
    private final Object lock = new Object();
    private boolean nudged; // guarded by lock
    private boolean closed; // guarded by lock
    private boolean flushing; // guarded by lock: a flush waits, so whatever the status says is written at once
    private long heldSince = -1; // guarded by lock: System.nanoTime() when a status at work was first held; -1: none is
    private HostStatus written; // guarded by lock: what was last written, normalized (see #transition)
    private long writtenApplies; // guarded by lock: the applies counted in what was last written
    private long revision = -1; // only the reporter's thread: the key's revision as last seen; -1 before a look
    private Thread thread;

    /**
     * @param status the host's status now (its {@code updated} is set on writing)
     * @param registered whether the agent is registered as the host: until it is (another agent may be, see {@link
     *        io.muster.agent.etcd.HostRegistration}) nothing is written, and it nudges the reporter once it is
     */
    StatusReporter(Etcd etcd, String host, Supplier<HostStatus> status, BooleanSupplier registered, Backoff backoff) {
        this.etcd = etcd;
        this.key = Keys.status(host);
        this.status = status;
        this.registered = registered;
        this.backoff = backoff;
    }

    void start() {
        thread = Thread.ofVirtual().name("status").start(this::run);
    }

    /** Something may have changed: the status is looked at again soon. */
    void changed() {
        synchronized (lock) {
            if (nudged) return; // the thread is woken already, or gathering: waking it again costs a scheduling each
            nudged = true;
            lock.notifyAll();
        }
    }

    /** Waits until the status as it is now is written, at most {@code patience}; true when it is. */
    boolean flush(Duration patience) throws InterruptedException {
        HostStatus now = transition(status.get());
        long deadline = System.nanoTime() + patience.toNanos();
        synchronized (lock) {
            nudged = true;
            flushing = true;
            lock.notifyAll();
            for (long left; !now.equals(written) && (left = deadline - System.nanoTime()) > 0; ) lock.wait(Math.max(1, left / 1_000_000));
            return now.equals(written);
        }
    }

    private void run() {
        while (true) {
            synchronized (lock) {
                try {
                    for (long left; !nudged && !closed && (left = heldFor()) != 0; ) {
                        if (left < 0) lock.wait();
                        else lock.wait(Math.max(1, left / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    return;
                }
                if (closed) return;
            }
            if (!Waits.pause(lock, GATHER, () -> closed)) return;
            synchronized (lock) {
                nudged = false;
            }
            HostStatus now = status.get(); // not under lock: the status is read from the engine's workers
            HostStatus transition = transition(now);
            synchronized (lock) {
                boolean repaired = now.getSummary().getApplies() > writtenApplies;
                if (!repaired && (transition.equals(written) || !flushing && checkedAgain(transition, written))) {
                    heldSince = -1;
                    flushing = false; // what a flush waits for is written already
                    continue;
                }
                if (!flushing && !urgent(transition, written)) {
                    if (heldSince < 0) heldSince = System.nanoTime();
                    if (heldFor() != 0) continue;
                }
            }
            if (!registered.getAsBoolean()) { // registering nudges it again
                synchronized (lock) {
                    heldSince = -1;
                }
                continue;
            }
            try {
                write(now.toBuilder().setUpdated(System.currentTimeMillis()).build());
                backoff.reset();
                synchronized (lock) {
                    written = transition;
                    writtenApplies = now.getSummary().getApplies();
                    heldSince = -1;
                    flushing = false;
                    lock.notifyAll();
                }
            } catch (EtcdUnreachableException e) {
                LoggerFactory.getLogger("muster.agent").debug("writing the status: {}", e.getMessage());
                revision = -1;
                if (!Waits.pause(lock, backoff.next(), () -> closed)) return;
                changed();
            }
        }
    }

    /** Under {@link #lock}: nanoseconds until a held status is due (0: now), or -1 when none is held. */
    private long heldFor() {
        if (heldSince < 0) return -1;
        return Math.max(0, HOLD.toNanos() - (System.nanoTime() - heldSince));
    }

    /**
     * Whether {@code next} only tells that resources {@code last} counted as changed were checked again and found
     * stable, converged both times: the check that follows a resource's own change (its watch sees the write), no news.
     */
    private static boolean checkedAgain(HostStatus next, HostStatus last) {
        return last != null && next.getConverged() && last.getConverged() && changedAsStable(next).equals(changedAsStable(last));
    }

    private static HostStatus changedAsStable(HostStatus status) {
        Summary summary = status.getSummary();
        return status.toBuilder().setSummary(summary.toBuilder().setStable(summary.getStable() + summary.getChanged()).clearChanged()).build();
    }

    /** Whether {@code next} is written at once after {@code last}: see the class comment. */
    private static boolean urgent(HostStatus next, HostStatus last) {
        return last == null || next.getConverged() || !next.getError().equals(last.getError())
                || !next.getFailedList().equals(last.getFailedList()) && next.getFailedCount() > 0
                || next.getSummary().getUnresolvable() > last.getSummary().getUnresolvable();
    }

    private void write(HostStatus now) throws EtcdUnreachableException {
        ByteSequence value = ByteSequence.from(now.toByteArray());
        while (true) {
            if (revision < 0) {
                revision = etcd.await(etcd.kv().get(key, GetOption.builder().withKeysOnly(true).build())).getKvs().stream()
                        .findFirst().map(kv -> kv.getModRevision()).orElse(0L);
            }
            TxnResponse response = etcd.await(etcd.kv().txn()
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(revision)))
                    .Then(Op.put(key, value, PutOption.DEFAULT))
                    .commit());
            if (response.isSucceeded()) {
                revision = response.getHeader().getRevision();
                return;
            }
            revision = -1; // changed under us: look again
        }
    }

    /** The status without what changes on every check: what a transition is judged on. */
    private static HostStatus transition(HostStatus status) {
        return status.toBuilder().clearUpdated()
                .setSummary(status.getSummary().toBuilder().clearChecks().clearApplies().clearFailures()).build();
    }

    @Override
    public void close() throws InterruptedException {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        if (thread != null) thread.join(etcd.options().connectTimeout().toMillis() * 2);
    }
}
