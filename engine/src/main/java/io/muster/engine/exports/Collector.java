package io.muster.engine.exports;

import io.muster.engine.graph.Collect;
import io.muster.engine.graph.Graph;
import io.muster.engine.resource.Kinds;
import io.muster.engine.world.World;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Keeps a live run's graph joined with what its {@code collect} blocks match ({@link CollectedGraph}): follows the
 * World's collection of each kind the blocks name, and swaps the joined graph in whenever the graph or one of those
 * collections changes.
 *
 * <p>Threads: the World's deliveries only take note of the newest collection and wake the collector's thread,
 * which joins and swaps; changes within {@link #BATCH} of each other are one swap. Every join
 * and swap holds {@link #swapping} and joins what {@link #lock} holds at that moment, so the graph swapped in
 * last is always joined from the newest graph and collections.
 */
public final class Collector implements AutoCloseable {
    /** Where the joined graph goes: the engine's swap. */
    public interface Swap {
        void swap(Graph graph) throws InterruptedException;
    }

    /**
     * How long a change waits for others to join it: a thousand exporters starting at once are a few swaps of
     * the whole graph, not a thousand, at the price of this much latency for a change alone.
     */
    private static final Duration BATCH = Duration.ofMillis(50);

    private final World world;
    private final Kinds kinds;
    private final Swap swap;
    private final Object swapping = new Object();
    private final Object lock = new Object();
    private Graph base; // guarded by lock: the graph as compiled; null before the first
    private final Map<String, World.Registration> following = new HashMap<>(); // guarded by lock: by kind
    private final Map<String, List<World.Exported>> exports = new HashMap<>(); // guarded by lock: by kind
    private boolean changed; // guarded by lock: a collection changed since the last join
    private boolean closed; // guarded by lock
    private volatile List<Collected> collected = List.of();
    private final Thread joiner;

    public Collector(World world, Kinds kinds, Swap swap) {
        this.world = world;
        this.kinds = kinds;
        this.swap = swap;
        this.joiner = Thread.ofVirtual().name("collector").start(this::joinChanges);
    }

    /** Runs {@code next}, joined with what its blocks collect, in place of the running graph. */
    public void swap(Graph next) throws InterruptedException {
        synchronized (swapping) {
            synchronized (lock) {
                if (closed) return;
                base = next;
                follow(next.collects().stream().map(Collect::kind).collect(Collectors.toCollection(TreeSet::new)));
            }
            swapJoined();
        }
    }

    /** Every export the running graph's blocks matched, applied or rejected. */
    public List<Collected> collected() {
        return collected;
    }

    /** Follows the collections of {@code kinds} and no others. Under {@link #lock}. */
    private void follow(Set<String> kinds) {
        following.entrySet().removeIf(e -> {
            if (kinds.contains(e.getKey())) return false;
            e.getValue().close();
            exports.remove(e.getKey());
            return true;
        });
        for (String kind : kinds) {
            if (!following.containsKey(kind)) following.put(kind, world.collect(kind, now -> changed(kind, now)));
        }
    }

    private void changed(String kind, List<World.Exported> now) {
        synchronized (lock) {
            if (closed || !following.containsKey(kind) || now.equals(exports.get(kind))) return; // a state delivered again
            exports.put(kind, now);
            changed = true;
            lock.notifyAll();
        }
    }

    /** The collector's thread: joins and swaps in the newest collections, until closed. */
    private void joinChanges() {
        try {
            while (true) {
                synchronized (lock) {
                    while (!changed && !closed) lock.wait();
                    if (closed) return;
                }
                Thread.sleep(BATCH.toMillis()); // what else changes meanwhile joins in the same swap
                synchronized (swapping) {
                    swapJoined();
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** Joins the graph and collections as they are now, and swaps the result in. Under {@link #swapping}. */
    private void swapJoined() throws InterruptedException {
        Graph graph;
        Map<String, List<World.Exported>> now;
        synchronized (lock) {
            if (closed || base == null) return;
            changed = false;
            graph = base;
            now = Map.copyOf(exports);
        }
        CollectedGraph.Result joined = CollectedGraph.of(graph, world.host(), now, kinds);
        collected = joined.collected();
        swap.swap(joined.graph());
    }

    /** Stops following the collections; no graph is swapped in after it returns. */
    @Override
    public void close() throws InterruptedException {
        synchronized (lock) {
            closed = true;
            following.values().forEach(World.Registration::close);
            following.clear();
            lock.notifyAll();
        }
        joiner.join();
        synchronized (swapping) { // a swap under way (of a new graph, from another thread) ends first
            collected = List.of();
        }
    }
}
