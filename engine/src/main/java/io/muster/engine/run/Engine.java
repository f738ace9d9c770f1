package io.muster.engine.run;

import io.muster.engine.compile.BundleFiles;
import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.health.StopSignal;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Resource;
import io.muster.engine.template.Scope;
import io.muster.engine.world.World;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

/**
 * The one scheduler of both run modes: every resource of the graph has a {@link Worker} that runs it once
 * all it depends on has converged, and again whenever it is poked. A one-shot run ({@link OneShotRun}) is
 * this engine with watches off, ended once every resource has settled; a live run ({@link LiveRun})
 * watches every resource and swaps in new graphs ({@link #swap}), keeping the workers of resources that
 * stay the same (their watches and counters untouched), stopping removed ones (reversing them when {@code
 * meta.reverse} says so) and starting new ones.
 */
final class Engine implements AutoCloseable {
    /** Marks the run busy while a graph is being swapped in (and before the first one): never converged then. */
    static final String SWAPPING = "(graph swap)";

    /**
     * One graph as it runs, with its workers and what they run it with. A swap publishes a new one whole,
     * in a single volatile write: a reader sees a graph and its workers together, never one of each.
     */
    record Generation(Graph graph, Map<String, Worker> workers, Values values, VertexRun vertexRun, AggregateOutcome aggregateOutcome) {}

    private final RunOptions options;
    private final RunEvents events;
    private final Clock clock;
    private final ThreadFactory threads;
    private final Semaphores semaphores;
    private final Attempts attempts;
    /** The live run's watches; null in a one-shot run, which watches nothing. */
    private final PathWatches paths;
    private final Reversals reversals;
    /** What the run shares for its whole life (the World, the kinds' sessions): opened here, closed by {@link #close}. */
    private final RunShared shared;
    private final Seam seam = new Seam();
    /** Written only by {@link #swap} (synchronized), read by every worker without a lock. */
    private volatile Generation generation;
    /** Set once by {@link #halt}: no attempt begins after it. */
    private volatile boolean halted;
    /** Why health checks under way stop when the run ends on its own. */
    static final String ENDED = "the run ended";
    /** Given by {@link #halt} and {@link #close}: health checks under way make no further try. */
    private final StopSignal stop = new StopSignal();
    /** Told as each resource's attempt begins and ends; set before the first swap. */
    private volatile Activity activity = Activity.NONE;
    /** What a swap waits on for {@code meta.realize}; see {@link Seam#realizeChanged}. */
    private final Object realizing = new Object();
    /** Whether a swap waits on {@link #realizing} now: workers notify only then, not on every convergence. */
    private volatile boolean realizeAwaited;

    /** @param paths the watches of a live run, or null for a one-shot run */
    /** Tells {@code watcher} which resources run, from now on. */
    void activity(Activity watcher) {
        activity = watcher;
    }

    Engine(RunOptions options, World world, RunEvents events, PathWatches paths, Clock clock, ThreadFactory threads) {
        this.options = options;
        this.shared = RunShared.open(options, world, paths != null);
        this.events = events;
        this.paths = paths;
        this.clock = clock;
        this.threads = threads;
        this.semaphores = new Semaphores(options.sema());
        this.attempts = new Attempts(semaphores);
        this.reversals = new Reversals(options, report -> events.report(report, false));
        Graph empty = new Graph(List.of(), List.of());
        Values values = new Values(empty);
        this.generation = new Generation(empty, Map.of(), values, new VertexRun(options, values, shared, stop, clock, empty), new AggregateOutcome(empty, options));
    }

    /** Runs {@code next} in place of the running graph (the first call starts the run). */
    synchronized void swap(Graph next) throws InterruptedException {
        events.busy(SWAPPING, true);
        events.swapping(); // a new graph ends convergence now, not once the old workers have stopped
        Generation running = generation;
        Map<String, Worker> kept = new LinkedHashMap<>();
        List<Worker> gone = new ArrayList<>();
        for (Worker w : running.workers().values()) {
            Vertex replacement = next.vertex(w.id());
            if (replacement != null && same(w.vertex(), replacement)
                    && BundleFiles.readBy(w.vertex(), running.graph().bundle()).equals(BundleFiles.readBy(replacement, next.bundle()))) {
                kept.put(w.id(), w);
            }
            else gone.add(w);
        }
        // resources that must converge once before they go do so first, while the rest still runs; then all
        // of them are told to stop before any is waited for, so none starts a new apply meanwhile
        awaitRealized(gone);
        stopAll(gone);
        reversals.undo(running.graph(), gone.stream().map(Worker::vertex).toList(), next, running.vertexRun());
        shared.exports().withdrawLeaving(gone.stream().map(Worker::vertex).toList(), next);
        shared.sessions().closeAbsent(next); // after the reversals, which may still need them
        semaphores.use(next);
        Values values = running.values().withGraph(next);
        Map<String, Worker> all = new LinkedHashMap<>();
        List<Worker> fresh = new ArrayList<>();
        for (Vertex v : next.vertices()) {
            Worker w = kept.get(v.id());
            if (w == null) {
                w = new Worker(seam, v);
                fresh.add(w);
            }
            all.put(v.id(), w);
        }
        generation = new Generation(next, all, values, new VertexRun(options, values, shared, stop, clock, next), new AggregateOutcome(next, options));
        events.graph(next);
        events.swapping();
        Graph previous = running.graph();
        kept.forEach((id, w) -> w.rebind(next.vertex(id),
                !new HashSet<>(previous.incoming(id)).equals(new HashSet<>(next.incoming(id)))));
        fresh.forEach(Worker::start);
        events.busy(SWAPPING, false);
    }

    /** Waits until every one of {@code workers} may go ({@link Worker#realizedOrCannot}). */
    private void awaitRealized(Collection<Worker> workers) throws InterruptedException {
        if (workers.isEmpty()) return;
        synchronized (realizing) {
            realizeAwaited = true; // before looking: a worker that moves after this sees it and notifies
            try {
                for (Worker w : workers) while (!w.realizedOrCannot()) realizing.wait();
            } finally {
                realizeAwaited = false;
            }
        }
    }

    /** The workers of the running graph, in declaration order. */
    Collection<Worker> workers() {
        return generation.workers().values();
    }

    /**
     * No attempt begins from now on; those under way finish, their health checks without a further try,
     * which report {@code cause}. From any thread, without waiting.
     */
    void halt(String cause) {
        halted = true;
        stop.stop(cause);
        for (Worker w : workers()) w.requestStop();
    }

    /** The resources undone so far, as they left the graph ({@code meta.reverse}), in order. */
    List<ResourceReport> reversals() {
        return reversals.reports();
    }

    /**
     * Stops every worker; checks and applies under way finish first. The end of a run in both modes (what
     * the constructor opened for the run is closed here).
     */
    @Override
    public synchronized void close() throws InterruptedException {
        stop.stop(ENDED);
        stopAll(workers());
        shared.sessions().close(); // after every worker: none of them uses a session any more
    }

    private static void stopAll(Collection<Worker> stopping) throws InterruptedException {
        for (Worker w : stopping) w.requestStop();
        for (Worker w : stopping) w.awaitStopped();
    }

    /**
     * Whether a running resource can stay for its replacement: same kind, parameters and metaparams, and
     * the same group members, each the same. One with late properties also needs the same scope table. (A
     * swap also asks that the bundle files it reads hold what they held: {@link BundleFiles#readBy}.)
     */
    static boolean same(Vertex running, Vertex next) {
        if (!running.groupedIds().equals(next.groupedIds())) return false;
        for (int i = 0; i < running.grouped().size(); i++) {
            if (!same(running.grouped().get(i), next.grouped().get(i))) return false;
        }
        if (!running.kind().name().equals(next.kind().name()) || !running.meta().equals(next.meta())
                || !running.tags().equals(next.tags()) || !running.control().sameAs(next.control())
                || !running.late().equals(next.late())) {
            return false;
        }
        if (!running.late().isEmpty()) {
            return running.params().equals(next.params()) && running.scope().equals(next.scope());
        }
        if (running.params().equals(next.params())) return true; // most of a new graph: no resource to build and compare
        try {
            Resource a = running.kind().create(running.params());
            Resource b = next.kind().create(next.params());
            return a.sameAs(b);
        } catch (Exception | Error e) { // cannot tell (a stack overflow on deep content too): start it afresh
            return false;
        }
    }

    /** The engine as its workers see it, over the generation published last. */
    private final class Seam implements WorkerRun {
        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public ThreadFactory threads() {
            return threads;
        }

        @Override
        public Attempts attempts() {
            return attempts;
        }

        @Override
        public List<Link> dependencies(String id) {
            Generation g = generation;
            return links(g, g.graph().incoming(id), true);
        }

        @Override
        public List<Link> dependents(String id) {
            Generation g = generation;
            return links(g, g.graph().outgoing(id), false);
        }

        private static List<Link> links(Generation g, List<Edge> edges, boolean from) {
            List<Link> links = new ArrayList<>(edges.size());
            for (Edge e : edges) {
                Worker w = g.workers().get(from ? e.from() : e.to());
                if (w != null) links.add(new Link(e, w));
            }
            return links;
        }

        /**
         * An aggregate's outcome comes from its members' last reports. A member may have been checked again
         * since it changed (its own write wakes its watch), so whether one changed is told, not read.
         */
        @Override
        public ResourceReport attempt(Vertex v, boolean refresh, boolean membersChanged) {
            Generation g = generation;
            if (!aggregate(v)) {
                activity.started(v.id());
                try {
                    return g.vertexRun().run(v, refresh);
                } finally {
                    activity.finished(v.id());
                }
            }
            Map<String, ResourceReport> members = new HashMap<>();
            String blockedBy = null; // a member skipped for a failure skips the aggregate too, naming it
            for (Link l : links(g, g.graph().incoming(v.id()), true)) {
                ResourceReport last = l.worker().last();
                if (l.edge().reason() == EdgeReason.CHILD && last != null) members.put(l.edge().from(), last);
                if (blockedBy == null && failuresBlock() && l.edge().reason().blocksOnFailure() && l.worker().state() == Worker.State.FAILED) blockedBy = l.worker().failure();
            }
            ResourceReport outcome = g.aggregateOutcome().of(v, members, blockedBy);
            if (!membersChanged || outcome.status() != Status.STABLE) return outcome;
            return ResourceReport.changed(v.id(), "child resources changed");
        }

        @Override
        public boolean aggregate(Vertex v) {
            return v.role() == Vertex.Role.AGGREGATE;
        }

        @Override
        public Map<String, Object> outputs(String id) {
            return generation.values().outputs(id);
        }

        @Override
        public Scope scope(Vertex v) {
            return generation.vertexRun().scope(v);
        }

        @Override
        public RunEvents events() {
            return events;
        }

        @Override
        public boolean watches() {
            return paths != null;
        }

        @Override
        public boolean halted() {
            return halted;
        }

        @Override
        public boolean failuresBlock() {
            return !options.healthCheckOnly();
        }

        @Override
        public void realizeChanged() {
            if (!realizeAwaited) return; // the worker published its state first: a swap about to look sees it
            synchronized (realizing) {
                realizing.notifyAll();
            }
        }

        @Override
        public AutoCloseable watchPath(Path path, Runnable onChange) throws IOException {
            return paths.watch(path, onChange);
        }

        @Override
        public AutoCloseable watchEntries(Path dir, Runnable onChange) throws IOException {
            return paths.watchEntries(dir, onChange);
        }

        @Override
        public <S> S session(Vertex v, Class<S> type) throws IOException, InterruptedException {
            return shared.sessions().of(v.kind(), type);
        }
    }
}
