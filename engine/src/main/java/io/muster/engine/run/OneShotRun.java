package io.muster.engine.run;

import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.world.MemoryWorld;
import io.muster.engine.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * One pass over a graph ({@code muster apply}, {@code plan}, {@code check}): the {@link Engine} with watches
 * off, ended once every resource has settled (converged, failed or been skipped) once. Each resource runs
 * once all it depends on has, independent ones in parallel (at most {@code sema} at a time, and as their
 * {@code meta.sema} allow), tried as {@link Attempts} says ({@code meta.retry}, {@code meta.delay},
 * {@code meta.limit}). A failed resource's dependents are skipped, naming the failure; everything else
 * still runs. A dependency that changed refreshes its {@code notify}/{@code subscribe} targets. Whatever
 * a resource throws fails that resource only, so the run always ends with every resource reported;
 * {@link #stop} ends it early.
 */
public final class OneShotRun {
    private final Graph graph;
    private final RunOptions options;
    private final Consumer<ResourceReport> progress;
    private Activity activity = Activity.NONE;
    private final Clock clock;
    private final ThreadFactory threads;
    /** Guards {@link #stopCause}'s first write and {@link #settled}'s count; signalled by either. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition moved = lock.newCondition();
    /** Why it was stopped (reported for each resource it did not start), or null while it runs on. */
    private volatile String stopCause;
    /** Each resource's report, as it settled for the first time. */
    private final Map<String, ResourceReport> settled = new ConcurrentHashMap<>();
    private volatile Engine engine;
    private final World world;

    /** A run of one host on its own, with a {@link MemoryWorld}. */
    public OneShotRun(Graph graph, RunOptions options, Consumer<ResourceReport> progress) {
        this(graph, options, MemoryWorld.alone(options.hostname()), progress);
    }

    /** @param progress called as each resource finishes, from the thread that ran it */
    public OneShotRun(Graph graph, RunOptions options, World world, Consumer<ResourceReport> progress) {
        this(graph, options, world, progress, Clock.SYSTEM, Thread.ofVirtual().factory());
    }

    OneShotRun(Graph graph, RunOptions options, World world, Consumer<ResourceReport> progress, Clock clock, ThreadFactory threads) {
        this.graph = graph;
        this.options = options;
        this.world = world;
        this.progress = progress;
        this.clock = clock;
        this.threads = threads;
    }

    /**
     * Starts no resource from now on: those running finish (a retry or a further health check try is not
     * made), every other one is reported skipped, {@code <cause> before it ran}. From any thread, before or
     * during {@link #run}; the first cause stays.
     *
     * @param cause why, as a user reads it: {@code muster was stopped (SIGTERM)}
     */
    public void stop(String cause) {
        lock.lock();
        try {
            if (stopCause == null) stopCause = cause;
            moved.signalAll();
        } finally {
            lock.unlock();
        }
        Engine running = engine;
        if (running != null) running.halt(stopCause);
    }

    /** Tells {@code watcher} which resources run, as each begins and ends; before {@link #run}. */
    public void activity(Activity watcher) {
        activity = watcher;
    }

    public Report run() throws InterruptedException {
        long start = clock.nanoTime();
        Engine once = new Engine(options, world, new Events(), null, clock, threads);
        once.activity(activity);
        engine = once;
        if (stopCause != null) once.halt(stopCause); // stopped before it began: nothing starts
        try {
            once.swap(graph);
            lock.lock();
            try {
                while (settled.size() < graph.size() && stopCause == null) moved.await();
            } finally {
                lock.unlock();
            }
        } finally {
            once.halt(stopCause != null ? stopCause : Engine.ENDED);
            once.close(); // what runs finishes; nothing else starts
        }
        List<ResourceReport> ordered = new ArrayList<>(graph.size());
        for (Worker w : once.workers()) ordered.add(settled.computeIfAbsent(w.id(), id -> unsettled(w)));
        return new Report(options.hostname(), options.noop(), (clock.nanoTime() - start) / 1_000_000, ordered, options.healthCheckOnly());
    }

    /** What a resource that never settled says (the run was stopped): its last attempt's outcome, or why it did not run. */
    private ResourceReport unsettled(Worker w) {
        ResourceReport last = w.last();
        ResourceReport report = last != null ? last : VertexRun.placed(w.vertex(), ResourceReport.skipped(w.id(), stopCause + " before it ran"));
        tell(report);
        return report;
    }

    private void tell(ResourceReport report) {
        try {
            progress.accept(report);
        } catch (RuntimeException | Error e) { // whatever the report's reader did, the run goes on to the end
            LoggerFactory.getLogger("muster").debug("reporting {} failed", report.id(), e);
        }
    }

    /** A one-shot run reports each resource once, as it settles, and ends when all have. */
    private final class Events implements RunEvents {
        @Override
        public void settled(Worker w) {
            ResourceReport report = w.last();
            if (report == null || settled.putIfAbsent(w.id(), report) != null) return;
            tell(report);
            if (settled.size() < graph.size()) return;
            lock.lock();
            try {
                moved.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void graph(Graph graph) {}

        @Override
        public void busy(String id, boolean busy) {}

        @Override
        public void swapping() {}

        @Override
        public void checked(Vertex v, ResourceReport report, boolean retrying, boolean firstSuccess) {}

        @Override
        public void report(ResourceReport report, boolean eventful) {}

        @Override
        public void failure(Vertex v, boolean forGood) {}

        @Override
        public void failing(Vertex v, boolean hard, int delta) {}
    }
}
