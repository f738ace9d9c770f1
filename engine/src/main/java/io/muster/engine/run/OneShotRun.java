package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One pass over a graph ({@code muster apply}, {@code plan}): each resource runs once all it depends on
 * has finished, independent resources in parallel (at most {@code sema} at a time, and as their
 * {@code meta.sema} allow; one virtual thread each), tried as {@link Attempts} says ({@code meta.retry},
 * {@code meta.delay}, {@code meta.limit}). A failed resource's dependents are skipped, naming the failure; everything else still runs.
 * A dependency that changed refreshes its {@code notify}/{@code subscribe} targets. Whatever a resource
 * throws fails that resource only, so the run always ends with every resource reported; {@link #stop}
 * ends it early.
 */
public final class OneShotRun {
    private final Graph graph;
    private final RunOptions options;
    private final Consumer<ResourceReport> progress;
    private final Clock clock;
    private final ThreadFactory threads;
    /** Guards {@link #stopReason}'s first write; signalled on stop, to cut a retry's delay short. */
    private final ReentrantLock stopLock = new ReentrantLock();
    private final Condition stopped = stopLock.newCondition();
    /** Why it was stopped (reported for each resource it did not start), or null while it runs on. */
    private volatile String stopReason;

    /** @param progress called as each resource finishes, from the thread that ran it */
    public OneShotRun(Graph graph, RunOptions options, Consumer<ResourceReport> progress) {
        this(graph, options, progress, Clock.SYSTEM, Thread.ofVirtual().factory());
    }

    OneShotRun(Graph graph, RunOptions options, Consumer<ResourceReport> progress, Clock clock, ThreadFactory threads) {
        this.graph = graph;
        this.options = options;
        this.progress = progress;
        this.clock = clock;
        this.threads = threads;
    }

    /**
     * Starts no resource from now on: those running finish (a retry is not made), every other one is
     * reported skipped with {@code reason}. From any thread; the first reason stays.
     */
    public void stop(String reason) {
        stopLock.lock();
        try {
            if (stopReason == null) stopReason = reason;
            stopped.signalAll();
        } finally {
            stopLock.unlock();
        }
    }

    public Report run() throws InterruptedException {
        long start = clock.nanoTime();
        Map<String, ResourceReport> reports = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> waitingFor = new ConcurrentHashMap<>();
        Map<String, String> blockedBy = new ConcurrentHashMap<>(); // id -> the failed resource it depends on
        Map<String, Boolean> refresh = new ConcurrentHashMap<>();
        CountDownLatch finished = new CountDownLatch(graph.size());
        Semaphores semaphores = new Semaphores(options.sema());
        semaphores.use(graph);
        VertexRun vertexRun = new VertexRun(options, new Values(graph));
        Attempts attempts = new Attempts(semaphores);
        Attempts.Gate gate = new Attempts.Gate() {
            @Override
            public boolean begin() {
                return stopReason == null; // it may have come while this one waited for a permit or a retry
            }

            @Override
            public void end() {}

            @Override
            public boolean pause(long nanos) throws InterruptedException {
                stopLock.lock();
                try {
                    return clock.pause(stopLock, stopped, () -> stopReason != null, nanos);
                } finally {
                    stopLock.unlock();
                }
            }
        };
        ApplyOutcome applyOutcome = new ApplyOutcome(graph, options);
        for (Vertex v : graph.vertices()) waitingFor.put(v.id(), new AtomicInteger(graph.incoming(v.id()).size()));

        try (ExecutorService executor = Executors.newThreadPerTaskExecutor(threads)) {
            var scheduler = new Object() {
                void start(Vertex v) {
                    executor.execute(() -> {
                        ResourceReport report;
                        try {
                            report = execute(v);
                        } catch (RuntimeException | Error e) { // a bug or a JVM error outside the resource: the rest still runs
                            report = ResourceReport.failed(v.id(), "internal error: " + e);
                        }
                        report = VertexRun.placed(v, report);
                        reports.put(v.id(), report);
                        try {
                            progress.accept(report);
                        } finally { // whatever the report's reader did, the run goes on to the end
                            release(v, report);
                            finished.countDown();
                        }
                    });
                }

                ResourceReport execute(Vertex v) {
                    String stop = stopReason;
                    if (stop != null) return ResourceReport.skipped(v.id(), stop);
                    if (ApplyOutcome.isApply(v)) return applyOutcome.of(v, reports, blockedBy.get(v.id()));
                    String failedDependency = blockedBy.get(v.id());
                    if (failedDependency != null) return ResourceReport.skipped(v.id(), failedDependency);
                    boolean refreshIt = refresh.containsKey(v.id());
                    RateLimiter limiter = RateLimiter.of(v.meta().limit(), v.meta().burst(), clock);
                    ResourceReport[] last = {null}; // the last attempt's, should an interrupt end the tries
                    try {
                        Attempts.Tried tried = attempts.run(() -> v, limiter, gate, once -> vertexRun.run(once, refreshIt),
                                (once, report, retrying) -> last[0] = report);
                        return tried.last() != null ? tried.last() : ResourceReport.skipped(v.id(), stopReason);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return last[0] != null ? last[0] : ResourceReport.failed(v.id(), "interrupted");
                    }
                }

                void release(Vertex v, ResourceReport report) {
                    // a health-check run changes nothing, so every check runs, whatever failed before it
                    String blocking = options.healthCheckOnly() ? null : blockingReason(v.id(), report, blockedBy.get(v.id()));
                    for (Edge e : graph.outgoing(v.id())) {
                        if (blocking != null) blockedBy.putIfAbsent(e.to(), blocking);
                        if (Propagation.refreshes(e, v, graph.vertex(e.to()), report.status() == Status.CHANGED)) refresh.put(e.to(), true);
                        if (waitingFor.get(e.to()).decrementAndGet() == 0) start(graph.vertex(e.to()));
                    }
                }
            };
            // Roots are chosen before any starts: once one runs, its dependents' counters move under us.
            List<Vertex> roots = graph.vertices().stream().filter(v -> graph.incoming(v.id()).isEmpty()).toList();
            roots.forEach(scheduler::start);
            finished.await();
        }
        List<ResourceReport> ordered = new ArrayList<>(graph.size());
        for (Vertex v : graph.vertices()) ordered.add(reports.get(v.id()));
        return new Report(options.hostname(), options.noop(), (clock.nanoTime() - start) / 1_000_000, ordered, options.healthCheckOnly());
    }

    /** Why the dependents of a finished resource must not run, or null when they may. */
    private static String blockingReason(String id, ResourceReport report, String inherited) {
        if (report.status() == Status.FAILED) return Propagation.blockedBy(id);
        if (inherited != null) return inherited;
        return null;
    }
}
