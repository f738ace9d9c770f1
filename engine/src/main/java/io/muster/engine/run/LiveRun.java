package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Resource;
import io.muster.engine.template.Scope;
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
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code muster run}: keeps a graph converged. Every resource has a {@link Worker} that watches it and
 * repairs drift as it happens; a new graph ({@link #swap}) replaces the running one, keeping the workers of
 * resources that stay the same (their watches and counters untouched), stopping removed ones (reversing
 * them when {@code meta.reverse} says so) and starting new ones.
 */
public final class LiveRun implements AutoCloseable {
    /** Marks the run busy while a graph is being swapped in (and before the first one): never converged then. */
    private static final String SWAPPING = "(graph swap)";

    /**
     * One graph as it runs, with its workers and what they run it with. A swap publishes a new one whole,
     * in a single volatile write: a reader sees a graph and its workers together, never one of each.
     */
    record Generation(Graph graph, Map<String, Worker> workers, Values values, VertexRun vertexRun, ApplyOutcome applyOutcome) {}

    private final RunOptions options;
    private final Metrics metrics;
    private final Consumer<ResourceReport> progress;
    private final Clock clock;
    private final ThreadFactory threads;
    private final Convergence convergence;
    private final Semaphores semaphores;
    private final Attempts attempts;
    private final PathWatches paths;
    private final Seam seam = new Seam();
    /** Written only by {@link #swap} (synchronized), read by every worker without a lock. */
    private volatile Generation generation;
    private final Reversals reversals;
    /** What a swap waits on for {@code meta.realize}; see {@link Seam#realizeChanged}. */
    private final Object realizing = new Object();

    /**
     * @param quietSeconds how long nothing may change for the run to count as converged
     * @param progress told each check's outcome, from the resource's thread
     * @param onConverged told {@code true} on converging and {@code false} on leaving it
     */
    public LiveRun(RunOptions options, double quietSeconds, Metrics metrics, Consumer<ResourceReport> progress,
                   Consumer<Boolean> onConverged) throws IOException {
        this(options, quietSeconds, metrics, progress, onConverged, Clock.SYSTEM, Thread.ofVirtual().factory());
    }

    LiveRun(RunOptions options, double quietSeconds, Metrics metrics, Consumer<ResourceReport> progress,
            Consumer<Boolean> onConverged, Clock clock, ThreadFactory threads) throws IOException {
        this.options = options;
        this.metrics = metrics;
        this.progress = progress;
        this.clock = clock;
        this.threads = threads;
        this.semaphores = new Semaphores(options.sema());
        this.attempts = new Attempts(semaphores);
        this.reversals = new Reversals(options, progress);
        this.paths = new PathWatches();
        Graph empty = new Graph(List.of(), List.of());
        Values values = new Values(empty);
        this.generation = new Generation(empty, Map.of(), values, new VertexRun(options, values), new ApplyOutcome(empty, options));
        this.convergence = new Convergence((long) (Math.max(0, quietSeconds) * 1e9), converged -> {
            metrics.converged(converged);
            onConverged.accept(converged);
        }, clock, threads);
        convergence.busy(SWAPPING);
        convergence.start();
    }

    /** Runs {@code next} in place of the running graph (the first call starts the run). */
    public synchronized void swap(Graph next) throws InterruptedException {
        convergence.busy(SWAPPING);
        convergence.eventful(); // a new graph ends convergence now, not once the old workers have stopped
        Generation running = generation;
        Map<String, Worker> kept = new LinkedHashMap<>();
        List<Worker> gone = new ArrayList<>();
        for (Worker w : running.workers().values()) {
            Vertex replacement = next.vertex(w.id());
            if (replacement != null && same(w.vertex(), replacement)) kept.put(w.id(), w);
            else gone.add(w);
        }
        // resources that must converge once before they go do so first, while the rest still runs; then all
        // of them are told to stop before any is waited for, so none starts a new apply meanwhile
        awaitRealized(gone);
        stopAll(gone);
        reversals.undo(running.graph(), gone.stream().map(Worker::vertex).toList(), next, running.vertexRun());
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
        generation = new Generation(next, all, values, new VertexRun(options, values), new ApplyOutcome(next, options));
        metrics.graph(next.vertices().stream().collect(Collectors.groupingBy(v -> v.kind().name(),
                        Collectors.summingLong(v -> 1 + v.grouped().size()))),
                System.currentTimeMillis());
        convergence.eventful();
        Graph previous = running.graph();
        kept.forEach((id, w) -> w.rebind(next.vertex(id),
                !new HashSet<>(previous.incoming(id)).equals(new HashSet<>(next.incoming(id)))));
        fresh.forEach(Worker::start);
        convergence.idle(SWAPPING);
    }

    /** Waits until every one of {@code workers} may go ({@link Worker#realizedOrCannot}). */
    private void awaitRealized(Collection<Worker> workers) throws InterruptedException {
        synchronized (realizing) {
            for (Worker w : workers) while (!w.realizedOrCannot()) realizing.wait();
        }
    }

    /** Waits until converged, at most {@code timeoutNanos}; true when converged. */
    public boolean awaitConverged(long timeoutNanos) throws InterruptedException {
        return convergence.awaitConverged(timeoutNanos);
    }

    public boolean converged() {
        return convergence.converged();
    }

    /** Every resource of the running graph, in declaration order. */
    public List<ResourceStats> stats() {
        return generation.workers().values().stream().map(Worker::stats).toList();
    }

    public RunOptions options() {
        return options;
    }

    /** Watches {@code path} through the run's one inotify instance (the reloader watches the manifests so). */
    AutoCloseable watchPath(Path path, Runnable onChange) throws IOException {
        return paths.watch(path, onChange);
    }

    /** Stops every watch; checks and applies under way finish first. */
    @Override
    public synchronized void close() throws InterruptedException, IOException {
        convergence.close(); // stopping is not converging: the state stays what it was
        stopAll(generation.workers().values());
        paths.close();
    }

    private static void stopAll(Collection<Worker> stopping) throws InterruptedException {
        for (Worker w : stopping) w.requestStop();
        for (Worker w : stopping) w.awaitStopped();
    }

    /**
     * Whether a running resource can stay for its replacement: same kind, parameters and metaparams, and
     * the same group members, each the same.
     */
    static boolean same(Vertex running, Vertex next) {
        if (!running.groupedIds().equals(next.groupedIds())) return false;
        for (int i = 0; i < running.grouped().size(); i++) {
            if (!same(running.grouped().get(i), next.grouped().get(i))) return false;
        }
        if (!running.kind().name().equals(next.kind().name()) || !running.meta().equals(next.meta())
                || !running.tags().equals(next.tags()) || !conditions(running).equals(conditions(next))
                || !running.late().equals(next.late())) {
            return false;
        }
        if (!running.late().isEmpty()) {
            return running.params().equals(next.params()) && running.scope().data().equals(next.scope().data());
        }
        try {
            Resource a = running.kind().create(running.params());
            Resource b = next.kind().create(next.params());
            return a.sameAs(b);
        } catch (Exception | Error e) { // cannot tell (a stack overflow on deep content too): start it afresh
            return false;
        }
    }

    private static List<String> conditions(Vertex v) {
        List<String> sources = new ArrayList<>(2);
        if (v.control().onlyIf() != null) sources.add("if " + v.control().onlyIf().source());
        if (v.control().unless() != null) sources.add("unless " + v.control().unless().source());
        return sources;
    }

    /** The resources undone so far, as they left the graph ({@code meta.reverse}), in order. */
    public List<ResourceReport> reversals() {
        return reversals.reports();
    }

    /** The run as its workers see it, over the generation published last. */
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
            if (!aggregate(v)) return g.vertexRun().run(v, refresh);
            Map<String, ResourceReport> members = new HashMap<>();
            for (Link l : links(g, g.graph().incoming(v.id()), true)) {
                ResourceReport last = l.worker().last();
                if (l.edge().reason() == EdgeReason.CHILD && last != null) members.put(l.edge().from(), last);
            }
            ResourceReport outcome = g.applyOutcome().of(v, members, null);
            if (!membersChanged || outcome.status() != Status.STABLE) return outcome;
            return ResourceReport.changed(v.id(), "child resources changed");
        }

        @Override
        public boolean aggregate(Vertex v) {
            return ApplyOutcome.isApply(v);
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
        public void checked(Vertex v, ResourceReport report) {
            boolean changed = report.status() == Status.CHANGED;
            boolean failed = report.status() == Status.FAILED;
            metrics.checkApply(v.kind().name(), !(options.noop() || v.meta().noop()), changed, failed);
            report(report, changed || failed);
        }

        @Override
        public void report(ResourceReport report, boolean eventful) {
            if (eventful) convergence.eventful();
            progress.accept(report);
        }

        @Override
        public void failure(Vertex v, boolean forGood) {
            metrics.failure(v.kind().name(), forGood);
        }

        @Override
        public void failing(Vertex v, boolean hard, int delta) {
            metrics.failing(v.kind().name(), hard, delta);
        }

        @Override
        public void busy(String id, boolean busy) {
            if (busy) convergence.busy(id);
            else convergence.idle(id);
        }

        @Override
        public void realizeChanged() {
            synchronized (realizing) {
                realizing.notifyAll();
            }
        }

        @Override
        public AutoCloseable watchPath(Path path, Runnable onChange) throws IOException {
            return paths.watch(path, onChange);
        }
    }
}
