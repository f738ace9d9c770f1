package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.LoggerFactory;

/**
 * Keeps one resource converged for as long as it is in the graph: a virtual thread that checks and
 * repairs it whenever it is dirty and everything it depends on has converged, while its {@link WorkerWatch}
 * watches it (or polls it, with {@code meta.poll}) and marks it dirty when it may have drifted.
 *
 * <p>Dependents read {@link #state()} without locks; a worker publishes its state before it wakes them,
 * and they look again on every wake-up, so no wake-up is lost.
 */
final class Worker {
    /** What dependents see: whether they may run, must wait, or are blocked by a failure. */
    enum State { PENDING, CONVERGED, FAILED }

    private final LiveRun run;
    private final String id;
    private volatile Vertex vertex;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition signal = lock.newCondition();
    private boolean signalled = true;
    private boolean dirty = true;
    private boolean refresh;
    /** For an apply: a resource of its child manifest changed since it last ran. */
    private boolean childChanged;
    private boolean stopping;
    private boolean applying;

    private volatile State state = State.PENDING;
    /** Why dependents may not run, while {@link #state} is FAILED: "dependency X failed". */
    private volatile String failure;
    private volatile boolean convergedOnce;
    private volatile Failing failing = Failing.NONE;
    private volatile ResourceReport last;
    private final AtomicLong checks = new AtomicLong();
    private final AtomicLong applies = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final RateLimiter limiter;
    private Thread loop;
    private final WorkerWatch watch;
    private enum Failing { NONE, SOFT, HARD }

    Worker(LiveRun run, Vertex vertex) {
        this.run = run;
        this.id = vertex.id();
        this.vertex = vertex;
        this.limiter = RateLimiter.of(vertex.meta().limit(), vertex.meta().burst());
        this.watch = new WorkerWatch(this, run);
    }

    String id() {
        return id;
    }

    Vertex vertex() {
        return vertex;
    }

    State state() {
        return state;
    }

    String failure() {
        return failure;
    }

    boolean convergedOnce() {
        return convergedOnce;
    }

    /** Its last outcome, null before its first check. */
    ResourceReport last() {
        return last;
    }

    void start() {
        run.convergence().busy(id);
        watch.start(vertex);
        loop = Thread.ofVirtual().name(id).start(this::loop);
    }

    /**
     * Takes over the vertex of a new graph that is the same resource: counters and watch stay. When what
     * it depends on changed (an apply whose child manifest changed), it is checked again.
     */
    void rebind(Vertex next, boolean dependenciesChanged) {
        vertex = next;
        if (watch.rewatchIfFailed(next) || dependenciesChanged) {
            poke(false);
        } else {
            wake();
        }
    }

    /** The resource may have drifted, or a dependency changed: check it again. */
    void poke(boolean refreshIt) {
        lock.lock();
        try {
            if (stopping) return; // a late watch callback: a stopped resource must not stay busy
            dirty = true;
            refresh |= refreshIt;
            signalled = true;
            run.convergence().busy(id);
            signal.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** For an apply: one of its child manifest's resources changed something. */
    void childChanged() {
        lock.lock();
        try {
            childChanged = true;
        } finally {
            lock.unlock();
        }
        poke(false);
    }

    /** A dependency's state moved: look again whether this one may run. */
    void wake() {
        lock.lock();
        try {
            signalled = true;
            signal.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether a swap may replace or remove this resource now: it converged once, or needs not ({@code
     * meta.realize} off), or cannot for now because it or a resource it depends on failed for good, is
     * blocked, or retries a failure forever. As mgmt says, realize does not hold against a failed
     * prerequisite; a swap waiting for that could wait for the very manifest edit that fixes it.
     */
    boolean realizedOrCannot() {
        if (!vertex.meta().realize() || convergedOnce) return true;
        Set<String> seen = new HashSet<>();
        Deque<Worker> pending = new ArrayDeque<>(List.of(this));
        while (!pending.isEmpty()) {
            Worker w = pending.pop();
            if (w.state == State.FAILED || w.failing == Failing.SOFT && w.vertex.meta().retry() < 0) return true;
            for (Edge e : run.graph().incoming(w.id)) {
                Worker dependency = run.worker(e.from());
                if (dependency != null && seen.add(e.from())) pending.push(dependency);
            }
        }
        return false;
    }

    /** Stops watching and checking; a check or apply under way finishes (see {@link #awaitStopped}). */
    void requestStop() {
        lock.lock();
        try {
            stopping = true;
            if (!applying) loop.interrupt();
            signal.signalAll();
        } finally {
            lock.unlock();
        }
        watch.interrupt();
    }

    void awaitStopped() throws InterruptedException {
        loop.join();
        watch.end(); // the loop may have started it after requestStop (a first apply was under way)
        setFailing(Failing.NONE);
        run.convergence().idle(id);
    }

    /** This resource's counters and last outcome, for the final report. */
    ResourceStats stats() {
        ResourceReport r = last;
        Vertex v = vertex;
        return new ResourceStats(id, v.kind().name(), v.groupedIds(), r, checks.get(), applies.get(), failures.get());
    }

    private void loop() {
        try {
            watch.awaitReady();
            while (true) {
                lock.lock();
                try {
                    while (!signalled && !stopping) signal.await();
                    signalled = false;
                    if (stopping) return;
                    if (!dirty) continue;
                } finally {
                    lock.unlock();
                }
                try {
                    Worker blocker = firstDependency(State.FAILED, !ApplyOutcome.isApply(vertex));
                    if (watch.failure() != null) failWatch();
                    else if (blocker != null) blockedBy(blocker);
                    else if (firstDependency(State.PENDING, true) == null) converge();
                    // else: a dependency is still converging, and wakes this one when it is done
                } catch (RuntimeException | Error e) { // a bug or a JVM error outside the resource: keep the worker, and say so
                    LoggerFactory.getLogger("muster").debug("{}: internal error", id, e); // the trace for --debug; the report says what
                    failedOutsideItsRun("internal error: " + e);
                }
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    /** @param children whether an apply's child counts (a failed child fails the apply, it does not skip it) */
    private Worker firstDependency(State wanted, boolean children) {
        for (Edge e : run.graph().incoming(id)) {
            if (!children && e.reason() == EdgeReason.CHILD) continue;
            Worker w = run.worker(e.from());
            if (w != null && w.state() == wanted) return w;
        }
        return null;
    }

    /** Checks and, unless in noop, repairs: retried per {@code meta.retry}, {@code meta.delay} apart. */
    private void converge() throws InterruptedException {
        boolean refreshNow;
        boolean childrenChanged;
        lock.lock();
        try {
            dirty = false;
            refreshNow = refresh;
            refresh = false;
            childrenChanged = childChanged;
            childChanged = false;
        } finally {
            lock.unlock();
        }
        state = State.PENDING;
        for (int attempt = 0; ; attempt++) {
            Vertex v = vertex;
            Map<String, Object> before = run.values().outputs(id);
            ResourceReport report = attempt(v, refreshNow, childrenChanged);
            if (report == null) return; // stopped before it began
            record(v, report);
            if (report.status() != Status.FAILED) {
                succeeded(v, report, !before.equals(run.values().outputs(id)));
                return;
            }
            boolean retry = v.meta().retries(attempt);
            run.metrics().failure(v.kind().name(), !retry);
            if (!retry) {
                setFailing(Failing.HARD);
                fail("dependency " + id + " failed");
                return;
            }
            setFailing(Failing.SOFT);
            if (!pause(v.meta().delayMs())) return;
        }
    }

    /** One checkApply under the semaphores and the rate limit; null when stopped first. */
    private ResourceReport attempt(Vertex v, boolean refreshNow, boolean childrenChanged) throws InterruptedException {
        if (limiter != null) limiter.acquire();
        try (Semaphores.Permits permits = run.semaphores().acquire(v.meta().sema())) {
            lock.lock();
            try {
                if (stopping) return null;
                applying = true;
            } finally {
                lock.unlock();
            }
            try {
                return ApplyOutcome.isApply(v) ? run.applyOutcome(v, childrenChanged) : run.vertexRun().run(v, refreshNow);
            } finally {
                lock.lock();
                try {
                    applying = false;
                    Thread.interrupted(); // a stop that came during the apply is seen through 'stopping'
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    private void record(Vertex v, ResourceReport outcome) {
        ResourceReport report = VertexRun.placed(v, outcome);
        checks.incrementAndGet();
        boolean changed = report.status() == Status.CHANGED;
        boolean failed = report.status() == Status.FAILED;
        if (changed) applies.incrementAndGet();
        if (failed) failures.incrementAndGet();
        run.metrics().checkApply(v.kind().name(), !(run.options().noop() || v.meta().noop()), changed, failed);
        last = report;
        if (changed || failed) run.convergence().eventful();
        run.progress().accept(report);
    }

    private void succeeded(Vertex v, ResourceReport report, boolean outputsChanged) {
        setFailing(Failing.NONE);
        boolean changed = report.status() == Status.CHANGED;
        boolean first = !convergedOnce;
        convergedOnce = true;
        if (first) run.realizeChanged();
        failure = null;
        state = State.CONVERGED;
        for (Edge e : run.graph().outgoing(id)) {
            Worker dependent = run.worker(e.to());
            if (dependent == null) continue;
            boolean real = changed && v.changeIsRealTo(dependent.vertex());
            if (e.reason() == EdgeReason.CHILD && real) dependent.childChanged();
            else if (changed || outputsChanged && e.reason() == EdgeReason.LOOKUP) dependent.poke(real && e.reason().refreshes());
            else dependent.wake();
        }
        watch.converged(v, first);
        idleUnlessDirty();
    }

    private void fail(String why) {
        failure = why;
        state = State.FAILED;
        run.realizeChanged();
        for (Edge e : run.graph().outgoing(id)) {
            Worker dependent = run.worker(e.to());
            if (dependent == null) continue;
            if (e.reason() == EdgeReason.CHILD) dependent.poke(false); // the apply now fails, naming how many
            else dependent.wake();
        }
        idleUnlessDirty();
    }

    /** A dependency failed: this one is skipped, and blocks its own dependents, until it recovers. */
    private void blockedBy(Worker dependency) {
        String why = dependency.failure();
        if (why == null) return; // it recovered meanwhile
        if (state != State.FAILED || !why.equals(failure)) {
            last = VertexRun.placed(vertex, ResourceReport.skipped(id, why));
            run.progress().accept(last);
        }
        fail(why);
        run.convergence().idle(id); // still dirty, to run once the dependency recovers, but not busy
    }

    private void failWatch() {
        failedOutsideItsRun("watch failed: " + watch.failure());
    }

    /**
     * Fails it for a reason its check did not report (its watch gave up, a bug): reported once, and idle
     * until poked again, so the run can still converge.
     */
    private void failedOutsideItsRun(String why) {
        lock.lock();
        try {
            dirty = false;
        } finally {
            lock.unlock();
        }
        if (state != State.FAILED) { // each failed attempt of a watch was counted by the watch itself
            last = VertexRun.placed(vertex, ResourceReport.failed(id, why));
            run.progress().accept(last);
            run.convergence().eventful();
            setFailing(Failing.HARD);
        }
        fail("dependency " + id + " failed");
    }

    private void idleUnlessDirty() {
        lock.lock();
        try {
            if (!dirty) run.convergence().idle(id);
        } finally {
            lock.unlock();
        }
    }

    /** Waits {@code millis}, or less when stopped; false when stopped. */
    private boolean pause(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        lock.lock();
        try {
            while (!stopping) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return true;
                signal.awaitNanos(left);
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void setFailing(Failing next) {
        Failing previous = failing;
        if (previous == next) return;
        failing = next;
        if (next == Failing.SOFT) run.realizeChanged();
        String kind = vertex.kind().name();
        if (previous != Failing.NONE) run.metrics().failing(kind, previous == Failing.HARD, -1);
        if (next != Failing.NONE) run.metrics().failing(kind, next == Failing.HARD, 1);
    }

    /** An attempt of its watch failed: counted like a failed check; {@code retry} when another follows. */
    void watchFailed(boolean retry) {
        failures.incrementAndGet();
        run.metrics().failure(vertex.kind().name(), !retry);
    }
}
