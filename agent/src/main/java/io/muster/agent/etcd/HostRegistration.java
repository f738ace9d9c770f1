package io.muster.agent.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.Facts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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
 * host's facts (rewritten only when they changed), written together in one transaction, and only while no
 * other agent is registered as the host (else it waits until that one's alive key goes). The lease is kept
 * alive every third of its TTL, and the alive key written again every two TTLs ({@code Alive.renew_seconds}); when
 * the lease is lost (it expired while etcd or the agent was away, or etcd lost it), a new one is granted and the host registers again, and the listeners hear the new lease (the World
 * binds exports to it). While etcd is away, attempts are spaced by a jittered backoff, so a fleet does not
 * stampede an etcd that comes back. {@link #close()} revokes the lease, so {@code alive} disappears at once.
 */
public final class HostRegistration implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("muster.agent");

    private final Etcd etcd;
    private final String host;
    private final Duration ttl;
    private final Duration renewEvery; // twice the TTL: a write a minute for a fleet's default 30 s, no more
    private final Alive alive;
    private final Supplier<Facts> facts;
    private final Path leaseFile;
    private final Backoff backoff;
    private final List<LongConsumer> listeners = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private long lease; // guarded by lock: 0 while not registered
    private boolean closed; // guarded by lock
    private boolean unreachable; // only the loop's thread: whether the last attempt failed, to log a change once
    private long renewed; // only the loop's thread: System.nanoTime() when the alive key was last written
    private boolean claimed; // only the loop's thread: whether another agent held the name at the last attempt, to log it once
    private Thread thread;

    /**
     * @param facts the facts to publish, asked again on each registration
     * @param leaseFile where the lease is noted (in the agent's locked state prefix), so that the agent started again
     *        after a kill -9 knows the alive key its previous run left as its own, and need not wait for it to expire
     */
    public HostRegistration(Etcd etcd, String host, Duration ttl, Alive alive, Supplier<Facts> facts, Path leaseFile) {
        this.etcd = etcd;
        this.leaseFile = leaseFile;
        this.host = Keys.checkHost(host);
        if (ttl.toSeconds() < 1) throw new IllegalArgumentException("--lease-ttl must be at least 1 second, got " + ttl.toMillis() + " ms");
        this.ttl = ttl;
        this.renewEvery = ttl.multipliedBy(2);
        this.alive = alive.toBuilder().setRenewSeconds(renewEvery.toSeconds()).build();
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
                boolean registered = lease() != 0 ? keepAlive() : register();
                if (unreachable) LOG.info("etcd at {} answers again", etcd.options().describe());
                unreachable = false;
                if (registered) {
                    claimed = false;
                    backoff.reset();
                    wait = ttl.dividedBy(3);
                } else {
                    if (!claimed) LOG.warn("another agent is registered as {} (its alive key is there); waiting until it goes", host);
                    claimed = true;
                    wait = backoff.next();
                }
            } catch (EtcdUnreachableException e) {
                if (!unreachable) LOG.warn("{}; retrying", e.getMessage());
                unreachable = true;
                wait = backoff.next();
            }
            if (!Waits.pause(lock, wait, () -> closed)) return;
        }
    }

    /**
     * Registers the host, unless another agent is registered as it (its alive key is there): then it is left
     * alone, its facts too, and false returned. Another agent of the same name is a mistake (a copied unit
     * file, a mistyped {@code --host}), or this agent's previous run killed before its lease expired.
     */
    private boolean register() throws EtcdUnreachableException {
        ByteSequence aliveKey = Keys.alive(host);
        // looked at before granting a lease: leases are costly, and this may repeat until the other agent goes
        Optional<KeyValue> other = etcd.await(etcd.kv().get(aliveKey, GetOption.builder().withKeysOnly(true).build())).getKvs().stream().findFirst();
        if (other.isPresent()) {
            if (other.get().getLease() != previousLease()) return false;
            revoke(other.get().getLease()); // this agent's own, from before it was killed: its alive key goes with it
        }
        long granted = etcd.await(etcd.jetcd().getLeaseClient().grant(ttl.toSeconds())).getID();
        ByteSequence factsValue = ByteSequence.from(facts.get().toByteArray());
        ByteSequence factsKey = Keys.facts(host);
        Op putAlive = Op.put(aliveKey, ByteSequence.from(alive.toByteArray()), PutOption.builder().withLeaseId(granted).build());
        Cmp noOtherAgent = new Cmp(aliveKey, Cmp.Op.EQUAL, CmpTarget.version(0));
        // the facts are written only when they changed: the coordinator recompiles the host on each change
        boolean sameFacts = etcd.await(etcd.kv().txn()
                .If(noOtherAgent, new Cmp(factsKey, Cmp.Op.EQUAL, CmpTarget.value(factsValue))).Then(putAlive).commit()).isSucceeded();
        boolean registered = sameFacts || etcd.await(etcd.kv().txn()
                .If(noOtherAgent).Then(putAlive, Op.put(factsKey, factsValue, PutOption.DEFAULT)).commit()).isSucceeded();
        synchronized (lock) {
            if (closed || !registered) { // closed while registering, or another agent was quicker: revoke what was just granted
                revoke(granted);
                return registered;
            }
            lease = granted;
        }
        renewed = System.nanoTime();
        noteLease(granted);
        LOG.info("registered as {} with etcd at {}", host, etcd.options().describe());
        for (LongConsumer listener : listeners) {
            try {
                listener.accept(granted);
            } catch (RuntimeException e) {
                LOG.warn("after registering: {}", e.toString());
            }
        }
        return true;
    }

    /** The lease this agent's previous run noted, 0 when none or unreadable. */
    private long previousLease() {
        try {
            return Long.parseLong(Files.readString(leaseFile).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private void noteLease(long id) {
        try {
            Path temp = leaseFile.resolveSibling(leaseFile.getFileName() + ".tmp");
            Files.writeString(temp, Long.toString(id) + "\n");
            Files.move(temp, leaseFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("cannot note the lease in {}: {}; restarted after a kill -9, this agent waits for its alive key to expire",
                    leaseFile, e.getMessage());
        }
    }

    /** Keeps the lease alive; when it was lost, registers again: false when another agent was quicker to. */
    private boolean keepAlive() throws EtcdUnreachableException {
        long current = lease();
        try {
            etcd.jetcd().getLeaseClient().keepAliveOnce(current).get(etcd.options().connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
            if (System.nanoTime() - renewed >= renewEvery.toNanos()) renew(current);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof EtcdException etcdError && etcdError.getErrorCode() == ErrorCode.NOT_FOUND) {
                LOG.warn("the lease of {} is gone (it expired while etcd or this agent was away, or it was revoked: by host remove, or as not renewed); registering again", host);
                synchronized (lock) {
                    if (lease == current) lease = 0;
                }
                return register();
            }
            throw new EtcdUnreachableException("cannot reach etcd at " + etcd.options().describe() + ": " + Etcd.reason(e.getCause()), e.getCause());
        } catch (TimeoutException e) {
            throw new EtcdUnreachableException("cannot reach etcd at " + etcd.options().describe() + ": no answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdUnreachableException("interrupted", e);
        }
    }

    /**
     * Writes the alive key again, as it is, unless it is gone: that it was written lately tells the leading
     * coordinator this agent still runs, which a lease kept alive does not (any client may keep any lease alive).
     */
    private void renew(long current) throws EtcdUnreachableException {
        ByteSequence aliveKey = Keys.alive(host);
        etcd.await(etcd.kv().txn().If(new Cmp(aliveKey, Cmp.Op.GREATER, CmpTarget.version(0)))
                .Then(Op.put(aliveKey, ByteSequence.from(alive.toByteArray()), PutOption.builder().withLeaseId(current).build()))
                .commit());
        renewed = System.nanoTime();
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
