package io.muster.engine.run;

import io.muster.engine.exports.Collected;
import io.muster.engine.exports.Collector;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Kinds;
import io.muster.engine.world.MemoryWorld;
import io.muster.engine.world.World;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code muster run}: keeps a graph converged. The {@link Engine} with watches on: every resource is
 * watched and its drift repaired as it happens; a new graph ({@link #swap}) replaces the running one. This
 * class adds what only a live run has: every check counted in the metrics and reported, the convergence
 * judge, the path watches.
 */
public final class LiveRun implements AutoCloseable {
    private final RunOptions options;
    private final Metrics metrics;
    private final Consumer<ResourceReport> progress;
    private final Convergence convergence;
    private final PathWatches paths;
    private final Engine engine;
    private final Collector collector;
    private final Clock clock;
    private final ThreadFactory threads;

    /**
     * How long nothing may change for the run to count as converged.
     *
     * @param seconds after a change or a failure: a drift repaired restarts this whole
     * @param settleSeconds after a new graph arrives or a new resource makes its first change (not drift: no
     *        repair is under way), at most {@code seconds}
     */
    public record Quiet(double seconds, double settleSeconds) {
        /** The same quiet period after anything: {@code muster run --converged-timeout S} waits S seconds after a swap too. */
        public static Quiet of(double seconds) {
            return new Quiet(seconds, seconds);
        }

        private long nanos() {
            return (long) (Math.max(0, seconds) * 1e9);
        }

        private long settleNanos() {
            return (long) (Math.max(0, Math.min(seconds, settleSeconds)) * 1e9);
        }
    }

    /** A run of one host on its own, with a {@link MemoryWorld}. */
    public LiveRun(RunOptions options, double quietSeconds, Metrics metrics, Consumer<ResourceReport> progress,
                   Consumer<Boolean> onConverged) throws IOException {
        this(options, MemoryWorld.alone(options.hostname()), quietSeconds, metrics, progress, onConverged);
    }

    /**
     * @param quietSeconds how long nothing may change for the run to count as converged
     * @param progress told each check's outcome, from the resource's thread
     * @param onConverged told {@code true} on converging and {@code false} on leaving it
     */
    public LiveRun(RunOptions options, World world, double quietSeconds, Metrics metrics, Consumer<ResourceReport> progress,
                   Consumer<Boolean> onConverged) throws IOException {
        this(options, world, Quiet.of(quietSeconds), metrics, progress, onConverged);
    }

    /** As above, with a shorter quiet period for a new graph's own changes ({@link Quiet#settleSeconds}). */
    public LiveRun(RunOptions options, World world, Quiet quiet, Metrics metrics, Consumer<ResourceReport> progress,
                   Consumer<Boolean> onConverged) throws IOException {
        this(options, world, quiet, metrics, progress, onConverged, Clock.SYSTEM, Thread.ofVirtual().factory());
    }

    LiveRun(RunOptions options, World world, Quiet quiet, Metrics metrics, Consumer<ResourceReport> progress,
            Consumer<Boolean> onConverged, Clock clock, ThreadFactory threads) throws IOException {
        this.options = options;
        this.clock = clock;
        this.threads = threads;
        this.metrics = metrics;
        this.progress = progress;
        this.paths = new PathWatches(threads);
        this.convergence = new Convergence(quiet.nanos(), quiet.settleNanos(), converged -> {
            metrics.converged(converged);
            onConverged.accept(converged);
            if (converged) HeapReturn.converged();
        }, clock, threads);
        this.engine = new Engine(options, world, new Events(), paths, clock, threads);
        this.collector = new Collector(world, Kinds.installed(), engine::swap);
        convergence.busy(Engine.SWAPPING);
        convergence.start();
    }

    /** Tells {@code watcher} which resources run, as each check or apply begins and ends; before the first {@link #swap}. */
    public void activity(Activity watcher) {
        engine.activity(watcher);
    }

    /**
     * Runs {@code next} in place of the running graph (the first call starts the run), joined with the exports
     * of other hosts its {@code collect} blocks match, as long as it runs.
     */
    public void swap(Graph next) throws InterruptedException {
        collector.swap(next);
    }

    /** Every export of another host the running graph's {@code collect} blocks matched, applied or rejected. */
    public List<Collected> collected() {
        return collector.collected();
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
        return engine.workers().stream().map(Worker::stats).toList();
    }

    public RunOptions options() {
        return options;
    }

    /** The resources undone so far, as they left the graph ({@code meta.reverse}), in order. */
    public List<ResourceReport> reversals() {
        return engine.reversals();
    }

    /** Watches {@code path} through the run's one inotify instance (the reloader watches the manifests so). */
    AutoCloseable watchPath(Path path, Runnable onChange) throws IOException {
        return paths.watch(path, onChange);
    }

    /** The clock the run waits on; the reloader's quiet period too. */
    Clock clock() {
        return clock;
    }

    /** The threads the run starts; the reloader's too. */
    ThreadFactory threads() {
        return threads;
    }

    /** Stops every watch; checks and applies under way finish first. */
    @Override
    public void close() throws InterruptedException, IOException {
        collector.close(); // first: no graph is swapped in while the engine stops
        convergence.close(); // stopping is not converging: the state stays what it was
        engine.close();
        paths.close();
    }

    /** A live run counts every check in the metrics, reports it, and judges convergence from them. */
    private final class Events implements RunEvents {
        @Override
        public void graph(Graph graph) {
            metrics.graph(graph.vertices().stream().collect(Collectors.groupingBy(v -> v.kind().name(),
                    Collectors.summingLong(v -> 1 + v.grouped().size()))), System.currentTimeMillis());
        }

        @Override
        public void busy(String id, boolean busy) {
            if (busy) convergence.busy(id);
            else convergence.idle(id);
        }

        @Override
        public void swapping() {
            convergence.settling();
        }

        @Override
        public void checked(Vertex v, ResourceReport report, boolean retrying, boolean firstSuccess) {
            boolean changed = report.status() == Status.CHANGED;
            boolean failed = report.status() == Status.FAILED;
            metrics.checkApply(v.kind().name(), !(options.noop() || v.meta().noop()), changed, failed);
            if (v.role() == Vertex.Role.AGGREGATE) {
                progress.accept(report); // it changes nothing itself: each member's change or failure was judged as it came
            } else if (changed && firstSuccess) { // the new graph's own change, not a repair
                convergence.settling();
                progress.accept(report);
            } else {
                report(report, changed || failed);
            }
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
        public void settled(Worker w) {
            // a live run goes on: convergence is judged from what changes, not from who settled
        }
    }
}
