package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Resource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    private final RunOptions options;
    private final Metrics metrics;
    private final Consumer<ResourceReport> progress;
    private final Convergence convergence;
    private final Semaphores semaphores;
    private final PathWatches paths;
    private volatile Graph graph = new Graph(List.of(), List.of());
    private volatile Map<String, Worker> workers = Map.of();
    private volatile Values values = new Values(graph);
    private volatile VertexRun vertexRun;
    private volatile ApplyOutcome applyOutcome;
    private final Reversals reversals;
    /** What a swap waits on for {@code meta.realize}; see {@link #realizeChanged}. */
    private final Object realizing = new Object();

    /**
     * @param quietSeconds how long nothing may change for the run to count as converged
     * @param progress told each check's outcome, from the resource's thread
     * @param onConverged told {@code true} on converging and {@code false} on leaving it
     */
    public LiveRun(RunOptions options, double quietSeconds, Metrics metrics, Consumer<ResourceReport> progress,
                   Consumer<Boolean> onConverged) throws IOException {
        this.options = options;
        this.metrics = metrics;
        this.progress = progress;
        this.semaphores = new Semaphores(options.sema());
        this.reversals = new Reversals(options, progress);
        this.paths = new PathWatches();
        this.vertexRun = new VertexRun(options, values);
        this.applyOutcome = new ApplyOutcome(graph, options);
        this.convergence = new Convergence((long) (Math.max(0, quietSeconds) * 1e9), converged -> {
            metrics.converged(converged);
            onConverged.accept(converged);
        });
        convergence.busy(SWAPPING);
        convergence.start();
    }

    /** Runs {@code next} in place of the running graph (the first call starts the run). */
    public synchronized void swap(Graph next) throws InterruptedException {
        convergence.busy(SWAPPING);
        convergence.eventful(); // a new graph ends convergence now, not once the old workers have stopped
        Map<String, Worker> kept = new LinkedHashMap<>();
        List<Worker> gone = new ArrayList<>();
        for (Worker w : workers.values()) {
            Vertex replacement = next.vertex(w.id());
            if (replacement != null && same(w.vertex(), replacement)) kept.put(w.id(), w);
            else gone.add(w);
        }
        // resources that must converge once before they go do so first, while the rest still runs; then all
        // of them are told to stop before any is waited for, so none starts a new apply meanwhile
        awaitRealized(gone);
        stopAll(gone);
        reversals.undo(graph, gone.stream().map(Worker::vertex).toList(), next, vertexRun);
        semaphores.use(next);
        values = values.withGraph(next);
        vertexRun = new VertexRun(options, values);
        applyOutcome = new ApplyOutcome(next, options);
        Map<String, Worker> all = new LinkedHashMap<>();
        List<Worker> fresh = new ArrayList<>();
        for (Vertex v : next.vertices()) {
            Worker w = kept.get(v.id());
            if (w == null) {
                w = new Worker(this, v);
                fresh.add(w);
            }
            all.put(v.id(), w);
        }
        Graph previous = graph;
        workers = all; // first: a worker that sees the new graph must find the workers of its new dependencies
        graph = next;
        metrics.graph(next.vertices().stream().collect(Collectors.groupingBy(v -> v.kind().name(),
                        Collectors.summingLong(v -> 1 + v.grouped().size()))),
                System.currentTimeMillis());
        convergence.eventful();
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

    /** A resource converged for the first time, failed, or began to retry: a swap waiting for realize looks again. */
    void realizeChanged() {
        synchronized (realizing) {
            realizing.notifyAll();
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
        return workers.values().stream().map(Worker::stats).toList();
    }

    public RunOptions options() {
        return options;
    }

    /** Stops every watch; checks and applies under way finish first. */
    @Override
    public synchronized void close() throws InterruptedException, IOException {
        convergence.close(); // stopping is not converging: the state stays what it was
        stopAll(workers.values());
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

    // what workers share

    Graph graph() {
        return graph;
    }

    Worker worker(String id) {
        return workers.get(id);
    }

    Values values() {
        return values;
    }

    VertexRun vertexRun() {
        return vertexRun;
    }

    /**
     * An apply resource's outcome, from its children's last reports. A child may have been checked again
     * since it changed (its own write wakes its watch), so whether one changed is told, not read.
     */
    ResourceReport applyOutcome(Vertex apply, boolean childChanged) {
        Map<String, ResourceReport> children = new HashMap<>();
        for (Edge e : graph.incoming(apply.id())) {
            Worker child = workers.get(e.from());
            ResourceReport last = child == null ? null : child.last();
            if (e.reason() == EdgeReason.CHILD && last != null) children.put(e.from(), last);
        }
        ResourceReport outcome = applyOutcome.of(apply, children, null);
        if (!childChanged || outcome.status() != Status.STABLE) return outcome;
        return ResourceReport.changed(apply.id(), "child resources changed");
    }

    Convergence convergence() {
        return convergence;
    }

    Semaphores semaphores() {
        return semaphores;
    }

    PathWatches paths() {
        return paths;
    }

    Metrics metrics() {
        return metrics;
    }

    Consumer<ResourceReport> progress() {
        return progress;
    }
}
