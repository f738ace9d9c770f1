package io.muster.engine.exports;

import io.muster.engine.graph.Collect;
import io.muster.engine.graph.Graph;
import io.muster.engine.resource.Kinds;
import io.muster.engine.world.World;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Keeps a live run's graph joined with what its {@code collect} blocks match ({@link CollectedGraph}): follows the
 * World's collection of each kind the blocks name, and swaps the joined graph in whenever the graph or one of those
 * collections changes. One lock orders the graphs it hands on, so the last one swapped in is always the newest.
 */
public final class Collector implements AutoCloseable {
    /** Where the joined graph goes: the engine's swap. */
    public interface Swap {
        void swap(Graph graph) throws InterruptedException;
    }

    private final World world;
    private final Kinds kinds;
    private final Swap swap;
    private final Object lock = new Object();
    private Graph base; // guarded by lock: the graph as compiled; null before the first
    private final Map<String, World.Registration> following = new HashMap<>(); // guarded by lock: by kind
    private final Map<String, List<World.Exported>> exports = new HashMap<>(); // guarded by lock: by kind
    private boolean closed; // guarded by lock
    private volatile List<Collected> collected = List.of();

    public Collector(World world, Kinds kinds, Swap swap) {
        this.world = world;
        this.kinds = kinds;
        this.swap = swap;
    }

    /** Runs {@code next}, joined with what its blocks collect, in place of the running graph. */
    public void swap(Graph next) throws InterruptedException {
        synchronized (lock) {
            if (closed) return;
            base = next;
            follow(next.collects().stream().map(Collect::kind).collect(Collectors.toCollection(TreeSet::new)));
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
            try {
                swapJoined();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Under {@link #lock}. */
    private void swapJoined() throws InterruptedException {
        CollectedGraph.Result joined = CollectedGraph.of(base, world.host(), exports, kinds);
        collected = joined.collected();
        swap.swap(joined.graph());
    }

    /** Stops following the collections; no graph is swapped in after it returns. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            following.values().forEach(World.Registration::close);
            following.clear();
        }
    }
}
