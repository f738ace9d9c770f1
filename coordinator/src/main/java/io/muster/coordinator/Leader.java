package io.muster.coordinator;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.coordinator.etcd.WatchErrors;
import io.muster.coordinator.rollout.RolloutDriver;
import io.muster.proto.fleet.CurrentDeploy;
import io.muster.proto.fleet.GraphPointer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the leading coordinator does for one term: follows the current deploy and the hosts (a paged listing,
 * then watches from the revision after it; a compacted watch lists again) and compiles a host when the
 * current deploy changes, its facts change or it registers (its alive key appears). A host whose pointer
 * already names the current deploy and its facts is left as it is, so a coordinator restarted or taking over
 * publishes nothing twice; each pointer is written ({@link PointerWriter}, many hosts per transaction)
 * fenced on the pointer as read and on the leader's key. While the current deploy goes out in waves, a host its
 * rollout has not reached is compiled against the previous deploy ({@link RolloutDriver}, which also takes the
 * rollout's steps as the hosts' statuses come in). A watch that ends (its revision compacted, or refused) is followed by a new listing. Old revisions are compacted now and then, keeping those of the last interval.
 */
final class Leader {
    private static final Logger LOG = LoggerFactory.getLogger(Leader.class);
    private static final Object ENDED = new Object();

    /** A host as the leader knows it: whether it is alive, its facts as stored, its pointer and that key's revision. */
    private record HostState(boolean alive, byte[] facts, GraphPointer pointer, long pointerRevision) {
        static final HostState NONE = new HostState(false, null, null, 0);
    }

    private final Etcd etcd;
    private final Term term;
    private final HostCompiler compiler;
    private final Duration compactEvery;
    private final ConcurrentHashMap<String, HostState> hosts = new ConcurrentHashMap<>();
    private volatile LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private final ExecutorService workers;
    private final CompileQueue queue;
    private final PointerWriter writer;
    private final RolloutDriver rollouts;
    private volatile long current;
    private final AtomicInteger publishedCount = new AtomicInteger();
    private final AtomicInteger compileErrors = new AtomicInteger();
    private final Backoff relists = Backoff.forCoordinator(); // a watch that keeps ending must not list in a tight loop
    private long compactTo;
    private long compacted;

    Leader(Etcd etcd, Term term, HostCompiler compiler, int threads, Duration compactEvery) {
        this.etcd = etcd;
        this.term = term;
        this.compiler = compiler;
        this.compactEvery = compactEvery;
        this.workers = Executors.newFixedThreadPool(threads, Thread.ofPlatform().name("muster-compile-", 1).daemon().factory());
        this.queue = new CompileQueue(workers, this::compile, this::published);
        this.writer = new PointerWriter(etcd, term);
        this.rollouts = new RolloutDriver(etcd, term, Clock.systemUTC());
    }

    /** Leads until the term ends; returns why it ended. */
    String run() throws InterruptedException, EtcdUnreachableException {
        term.over().thenRun(() -> events.add(ENDED)); // wakes the current listing's wait
        try {
            while (!term.ended()) follow();
            return term.over().getNow("");
        } finally {
            workers.shutdownNow(); // interrupts the compile threads waiting for their writes
            workers.awaitTermination(10, TimeUnit.SECONDS);
            writer.close();
        }
    }

    /** One listing and the watches that follow it, until the term ends or the watch is compacted. */
    private void follow() throws InterruptedException, EtcdUnreachableException {
        LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>(); // none of an earlier listing's watches
        this.events = events;
        if (term.ended()) return;
        hosts.clear();
        rollouts.relist();
        long revision = Pages.forEach(etcd, Keys.HOSTS, kv -> { // compiled once the listing is whole, below
            put(kv);
            rollouts.host(kv, false);
        });
        GetOption atListing = GetOption.builder().withRevision(revision).build();
        GetResponse deploy = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY, atListing));
        current = deploy.getKvs().isEmpty() ? 0 : Stored.parse(CurrentDeploy.parser(), deploy.getKvs().getFirst()).getId();
        rollouts.follow(current, revision);
        if (etcd.await(etcd.kv().get(term.key(), atListing)).getKvs().isEmpty()) term.end("its election key is gone");
        LOG.info("following {} hosts at revision {}, current deploy {}", hosts.size(), revision, current == 0 ? "none" : current);
        hosts.keySet().forEach(queue::mark);
        List<Watch.Watcher> watchers = new ArrayList<>();
        try {
            for (ByteSequence key : List.of(Keys.HOSTS, Keys.CURRENT_DEPLOY, Keys.ROLLOUTS, term.key())) {
                WatchOption option = WatchOption.builder().isPrefix(key == Keys.HOSTS || key == Keys.ROLLOUTS).withRevision(revision + 1).build();
                watchers.add(etcd.jetcd().getWatchClient().watch(key, option, events::add, events::add));
            }
            long nextCompaction = System.nanoTime() + compactEvery.toNanos();
            stepRollout();
            while (!term.ended()) {
                long wait = Math.min(Math.max(0, nextCompaction - System.nanoTime()), TimeUnit.MILLISECONDS.toNanos(rollouts.millisToDeadline()));
                Object event = events.poll(wait, TimeUnit.NANOSECONDS);
                if (event == null) {
                    if (System.nanoTime() >= nextCompaction) {
                        compact();
                        nextCompaction = System.nanoTime() + compactEvery.toNanos();
                    }
                    stepRollout(); // a wave's timeout
                } else if (event instanceof WatchResponse response) {
                    relists.reset();
                    for (WatchEvent e : response.getEvents()) apply(e);
                    stepRollout();
                } else if (event instanceof Throwable error && !WatchErrors.resumed(error)) {
                    LOG.info("a watch ended ({}); listing again", error.getMessage());
                    Thread.sleep(relists.next());
                    return;
                }
            }
        } finally {
            watchers.forEach(Watch.Watcher::close);
        }
    }

    /** Takes the rollout's steps that are due (a wave that ends starts the next, which may halt at once); compiles the hosts they reach. */
    private void stepRollout() throws EtcdUnreachableException {
        boolean stepped = false;
        while (!term.ended() && rollouts.check()) stepped = true;
        if (stepped) hosts.keySet().forEach(queue::mark);
    }

    private void apply(WatchEvent event) throws EtcdUnreachableException {
        KeyValue kv = event.getKeyValue();
        boolean deleted = event.getEventType() == WatchEvent.EventType.DELETE;
        if (kv.getKey().equals(term.key())) {
            if (deleted) term.end("its election key was deleted (its lease expired)");
        } else if (kv.getKey().equals(Keys.CURRENT_DEPLOY)) {
            current = deleted ? 0 : Stored.parse(CurrentDeploy.parser(), kv).getId();
            rollouts.follow(current, kv.getModRevision()); // written with it: which hosts get it now
            LOG.info("current deploy: {}", current == 0 ? "none" : current);
            hosts.keySet().forEach(queue::mark);
        } else if (Keys.parseRollout(kv.getKey()) > 0) {
            if (rollouts.rolloutChanged(kv, deleted)) hosts.keySet().forEach(queue::mark);
        } else {
            rollouts.host(kv, deleted);
            String host = deleted ? delete(kv) : put(kv);
            if (host != null) queue.mark(host);
        }
    }

    /**
     * Takes note of a host's key; returns the host, or null for a key that is none of a host's or that its
     * compile does not read (its status: agents write several per deploy, and each would queue the host).
     */
    private String put(KeyValue kv) {
        Keys.HostKey key = Keys.parseHostKey(kv.getKey());
        if (key == null) return null;
        switch (key.what()) {
            case "alive" -> update(key.host(), s -> new HostState(true, s.facts, s.pointer, s.pointerRevision));
            case "facts" -> update(key.host(), s -> new HostState(s.alive, kv.getValue().getBytes(), s.pointer, s.pointerRevision));
            case "graph" -> update(key.host(), s -> kv.getModRevision() < s.pointerRevision ? s
                    : new HostState(s.alive, s.facts, pointer(kv), kv.getModRevision()));
            default -> {
                return null;
            }
        }
        return key.host();
    }

    private String delete(KeyValue kv) {
        Keys.HostKey key = Keys.parseHostKey(kv.getKey());
        if (key == null) return null;
        switch (key.what()) {
            case "alive" -> update(key.host(), s -> new HostState(false, s.facts, s.pointer, s.pointerRevision));
            case "facts" -> update(key.host(), s -> new HostState(s.alive, null, s.pointer, s.pointerRevision));
            case "graph" -> update(key.host(), s -> new HostState(s.alive, s.facts, null, 0));
            default -> {
                return null;
            }
        }
        return key.host();
    }

    /** A host's pointer; one that is not a pointer counts as none, so the next compile writes one over it. */
    private static GraphPointer pointer(KeyValue kv) {
        try {
            return Stored.parse(GraphPointer.parser(), kv);
        } catch (Stored.CorruptKeyException e) {
            LOG.warn("{}; it will be written anew", e.getMessage());
            return null;
        }
    }

    private void update(String host, UnaryOperator<HostState> change) {
        hosts.compute(host, (h, s) -> change.apply(s == null ? HostState.NONE : s));
    }

    /**
     * Compiles one host's graph and hands it to the writer, unless its pointer names the current deploy and its facts
     * already; returns when the write is done (or given up), so the host is not compiled again before.
     */
    private CompletionStage<?> compile(String host) {
        HostState state = hosts.get(host);
        long deploy = rollouts.deployFor(host); // the current deploy, or the previous one for a host its rollout has not reached
        if (term.ended() || deploy == 0 || state == null || !state.alive || state.facts == null) return CompileQueue.nothing();
        GraphPointer previous = state.pointer;
        if (previous != null && previous.getDeploy() == deploy && previous.getFacts().equals(ContentStore.sha256(state.facts))) {
            return CompileQueue.nothing();
        }
        HostCompiler.Compiled compiled;
        try {
            compiled = compiler.compile(host, state.facts, deploy, previous);
        } catch (EtcdUnreachableException e) {
            term.end(e.getMessage());
            return CompileQueue.nothing();
        } catch (RuntimeException e) {
            LOG.error("{}: cannot compile: {}", host, e.toString(), e);
            return CompileQueue.nothing();
        }
        GraphPointer pointer = compiled.pointer();
        return writer.write(host, pointer, previous, state.pointerRevision, compiled.graph()).handle((revision, failure) -> {
            if (failure != null) {
                if (failure instanceof EtcdUnreachableException unreachable) term.end(unreachable.getMessage());
                else LOG.error("{}: cannot publish: {}", host, failure.toString(), failure);
            } else if (revision != 0) { // 0: its pointer moved meanwhile (the watch marks the host again), or the term ended
                written(host, deploy, pointer, revision);
            }
            return null;
        });
    }

    /** Takes note of a host's pointer written at {@code revision}. */
    private void written(String host, long deploy, GraphPointer pointer, long revision) {
        hosts.computeIfPresent(host, (h, s) -> s.pointerRevision > revision ? s : new HostState(s.alive, s.facts, pointer, revision));
        publishedCount.incrementAndGet();
        if (pointer.getError().isEmpty()) {
            LOG.debug("{}: deploy {}, graph {}", host, deploy, pointer.getGraph());
        } else {
            compileErrors.incrementAndGet();
            LOG.warn("{}: deploy {} does not compile: {}", host, deploy, pointer.getError());
        }
    }

    /** One line when a burst of compiles is over. */
    private void published() {
        int hosts = publishedCount.getAndSet(0);
        int errors = compileErrors.getAndSet(0);
        if (hosts > 0) LOG.info("published {} host pointers for deploy {}{}", hosts, current, errors == 0 ? "" : " (" + errors + " with compile errors)");
    }

    /** Compacts to the revision seen at the previous compaction, so each interval's history is kept. */
    private void compact() {
        try {
            long now = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY, GetOption.builder().withCountOnly(true).build())).getHeader().getRevision();
            if (compactTo > compacted) { // nothing written for an interval: nothing to compact
                etcd.await(etcd.kv().compact(compactTo));
                compacted = compactTo;
                LOG.info("compacted etcd's history up to revision {}", compactTo);
            }
            compactTo = now;
        } catch (EtcdUnreachableException e) {
            LOG.warn("cannot compact: {}", e.getMessage()); // an earlier compaction past it, or etcd away: the next one will do
        }
    }
}
