package io.muster.agent.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.Facts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A host's presence in the fleet: one lease per agent, the tiny {@code alive} key bound to it, and the
 * host's facts (rewritten only when they changed), written together in one transaction. The lease is kept
 * alive every third of its TTL; when it is lost (it expired while etcd or the agent was away, or etcd lost
 * it), a new one is granted and the host registers again, and the listeners hear the new lease (the World
 * binds exports to it). While etcd is away, attempts are spaced by a jittered backoff, so a fleet does not
 * stampede an etcd that comes back. {@link #close()} revokes the lease, so {@code alive} disappears at once.
 */
public final class HostRegistration implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("muster.agent");

    private final Etcd etcd;
    private final String host;
    private final Duration ttl;
    private final Alive alive;
    private final Supplier<Facts> facts;
    private final Backoff backoff;
    private final List<LongConsumer> listeners = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private long lease; // guarded by lock: 0 while not registered
    private boolean closed; // guarded by lock
    private boolean unreachable; // only the loop's thread: whether the last attempt failed, to log a change once
    private Thread thread;

    /** @param facts the facts to publish, asked again on each registration */
    public HostRegistration(Etcd etcd, String host, Duration ttl, Alive alive, Supplier<Facts> facts) {
        this.etcd = etcd;
        this.host = Keys.checkHost(host);
        if (ttl.toSeconds() < 1) throw new IllegalArgumentException("--lease-ttl must be at least 1 second, got " + ttl.toMillis() + " ms");
        this.ttl = ttl;
        this.alive = alive;
        this.facts = facts;
        this.backoff = new Backoff(Duration.ofMillis(200), ttl);
    }

    /** Tells {@code listener} each new lease, once the host is registered with it (from the registration's thread). */
    public void onRegistered(LongConsumer listener) {
        listeners.add(listener);
    }

    /** Registers, and keeps the host registered until {@link #close()}. */
    public void start() {
        thread = Thread.ofVirtual().name("registration").start(this::run);
    }

    /** The lease the host is registered with now; 0 while it is not. */
    public long lease() {
        synchronized (lock) {
            return lease;
        }
    }

    private void run() {
        while (true) {
            Duration wait;
            try {
                if (lease() == 0) register();
                else keepAlive();
                if (unreachable) LOG.info("etcd at {} answers again", etcd.options().describe());
                unreachable = false;
                backoff.reset();
                wait = ttl.dividedBy(3);
            } catch (EtcdUnreachableException e) {
                if (!unreachable) LOG.warn("{}; retrying", e.getMessage());
                unreachable = true;
                wait = backoff.next();
            }
            if (!Waits.pause(lock, wait, () -> closed)) return;
        }
    }

    private void register() throws EtcdUnreachableException {
        long granted = etcd.await(etcd.jetcd().getLeaseClient().grant(ttl.toSeconds())).getID();
        ByteSequence factsValue = ByteSequence.from(facts.get().toByteArray());
        ByteSequence factsKey = Keys.facts(host);
        Op putAlive = Op.put(Keys.alive(host), ByteSequence.from(alive.toByteArray()), PutOption.builder().withLeaseId(granted).build());
        // the facts are written only when they changed: the coordinator recompiles the host on each change
        etcd.await(etcd.kv().txn()
                .If(new Cmp(factsKey, Cmp.Op.EQUAL, CmpTarget.value(factsValue)))
                .Then(putAlive)
                .Else(putAlive, Op.put(factsKey, factsValue, PutOption.DEFAULT))
                .commit());
        synchronized (lock) {
            if (closed) { // closed while registering: revoke what was just granted
                revoke(granted);
                return;
            }
            lease = granted;
        }
        LOG.info("registered as {} with etcd at {}", host, etcd.options().describe());
        for (LongConsumer listener : listeners) {
            try {
                listener.accept(granted);
            } catch (RuntimeException e) {
                LOG.warn("after registering: {}", e.toString());
            }
        }
    }

    private void keepAlive() throws EtcdUnreachableException {
        long current = lease();
        try {
            etcd.jetcd().getLeaseClient().keepAliveOnce(current).get(etcd.options().connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof EtcdException etcdError && etcdError.getErrorCode() == ErrorCode.NOT_FOUND) {
                LOG.warn("the lease of {} was lost (etcd was away longer than --lease-ttl, or lost it); registering again", host);
                synchronized (lock) {
                    if (lease == current) lease = 0;
                }
                register();
                return;
            }
            throw new EtcdUnreachableException("cannot reach etcd at " + etcd.options().describe() + ": " + Etcd.reason(e.getCause()), e.getCause());
        } catch (TimeoutException e) {
            throw new EtcdUnreachableException("cannot reach etcd at " + etcd.options().describe() + ": no answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdUnreachableException("interrupted", e);
        }
    }

    /** Stops keeping the host registered and revokes its lease, so its alive key and exports disappear now. */
    @Override
    public void close() throws InterruptedException {
        long revoked;
        synchronized (lock) {
            closed = true;
            revoked = lease;
            lease = 0;
            lock.notifyAll();
        }
        if (thread != null) thread.join(etcd.options().connectTimeout().toMillis() * 2);
        if (revoked != 0) revoke(revoked);
    }

    private void revoke(long id) {
        try {
            etcd.await(etcd.jetcd().getLeaseClient().revoke(id));
        } catch (EtcdUnreachableException e) {
            LOG.warn("{}; the alive key of {} expires with its lease", e.getMessage(), host);
        }
    }
}
