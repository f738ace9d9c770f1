package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Watcher;
import io.muster.engine.template.Scope;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one resource converged for as long as it is in the graph: a virtual thread that checks and
 * repairs it whenever it is dirty and everything it depends on has converged, and one that watches it
 * (or polls it, with {@code meta.poll}) and marks it dirty when it may have drifted.
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
    private volatile String watchFailure;
    private volatile Failing failing = Failing.NONE;
    private volatile ResourceReport last;
    private final CountDownLatch watchReady = new CountDownLatch(1);
    private final AtomicLong checks = new AtomicLong();
    private final AtomicLong applies = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final RateLimiter limiter;
    private Thread loop;
    private volatile Thread watch;
    /** Held while the watch is started or ended. */
    private final Object watchLock = new Object();
    /** The parameters, late ones rendered, of the resource {@link #watch} watches. */
    private volatile Params watchedWith;
    private enum Failing { NONE, SOFT, HARD }

    Worker(LiveRun run, Vertex vertex) {
        this.run = run;
        this.id = vertex.id();
        this.vertex = vertex;
        this.limiter = RateLimiter.of(vertex.meta().limit(), vertex.meta().burst());
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

    void start() {
        run.convergence().busy(id);
        Vertex v = vertex;
        if (v.meta().pollSeconds() > 0) {
            watchReady.countDown();
            watch = Thread.ofVirtual().name("poll " + id).start(this::poll);
        } else if (v.late().isEmpty()) {
            startWatch(); // before the first check, so nothing between them goes unseen
        } else {
            watchReady.countDown(); // its late values exist after its first run: the watch starts then
        }
        loop = Thread.ofVirtual().name(id).start(this::loop);
    }

    /**
     * Takes over the vertex of a new graph that is the same resource: counters and watch stay. When what
     * it depends on changed (an apply whose child manifest changed), it is checked again.
     */
    void rebind(Vertex next, boolean dependenciesChanged) {
        vertex = next;
        if (watchFailure != null && next.meta().rewatch()) {
            watchFailure = null;
            startWatch();
            poke(false);
        } else if (dependenciesChanged) {
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
        if (watch != null) watch.interrupt();
    }

    void awaitStopped() throws InterruptedException {
        loop.join();
        endWatch(); // the loop may have started it after requestStop (a first apply was under way)
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
            watchReady.await();
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
                    if (watchFailure != null) failWatch();
                    else if (blocker != null) blockedBy(blocker);
                    else if (firstDependency(State.PENDING, true) == null) converge();
                    // else: a dependency is still converging, and wakes this one when it is done
                } catch (RuntimeException e) { // a bug, not the resource's failure: keep the worker, and say so
                    LoggerFactory.getLogger("muster").error("{}: internal error", id, e);
                    fail("internal error: " + e);
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
        ResourceReport report = placed(v, outcome);
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

    /** A report as the run shows it: with its child manifest and the resources grouped into it. */
    private static ResourceReport placed(Vertex v, ResourceReport report) {
        return report.placed(v.origin().childManifest(), v.groupedIds());
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
        if (v.meta().pollSeconds() == 0) {
            if (first && watch == null) startWatch();
            else if (!v.late().isEmpty()) rewatchIfMoved(v); // a value it reads may have moved what it watches
        }
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
            last = placed(vertex, ResourceReport.skipped(id, why));
            run.progress().accept(last);
        }
        fail(why);
        run.convergence().idle(id); // still dirty, to run once the dependency recovers, but not busy
    }

    private void failWatch() {
        String why = "watch failed: " + watchFailure;
        lock.lock();
        try {
            dirty = false;
        } finally {
            lock.unlock();
        }
        if (state != State.FAILED) { // each failed attempt was counted by the watch itself
            last = placed(vertex, new ResourceReport(id, Status.FAILED, List.of(), false, null, why, 0));
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

    private void poll() {
        try {
            while (true) {
                TimeUnit.SECONDS.sleep(vertex.meta().pollSeconds());
                poke(false);
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    /**
     * Starts the resource's watch, in place of the one running if any: the swap (rewatch) and the loop (a
     * moved target) may both restart it, and there is never more than one.
     */
    private void startWatch() {
        synchronized (watchLock) {
            try {
                endWatch();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // being stopped: the stop ends the watch
                return;
            }
            Resource resource;
            try {
                Vertex v = vertex;
                Scope scope = run.vertexRun().scope(v);
                watchedWith = VertexRun.bind(v, scope);
                resource = VertexRun.build(v, scope);
            } catch (Exception e) { // the run reports why it cannot be built; there is nothing to watch yet
                watchReady.countDown();
                return;
            }
            watch = Thread.ofVirtual().name("watch " + id).start(() -> watch(resource));
        }
    }

    /** Interrupts the watch and waits until it ended. */
    private void endWatch() throws InterruptedException {
        synchronized (watchLock) {
            Thread running = watch;
            if (running == null) return;
            running.interrupt();
            running.join();
        }
    }

    /** Restarts the watch when the values the resource reads now give it other parameters than it is watched with. */
    private void rewatchIfMoved(Vertex v) {
        try {
            if (watch == null || VertexRun.bind(v, run.vertexRun().scope(v)).equals(watchedWith)) return;
        } catch (RuntimeException e) {
            return; // a value it reads went away meanwhile: its next run says so
        }
        startWatch();
    }

    /** Runs the resource's watch, restarting it per {@code meta.retry}; a watch that gives up fails the resource. */
    private void watch(Resource resource) {
        Watcher watcher = new ResourceWatcher();
        for (int attempt = 0; ; attempt++) {
            try {
                resource.watch(watcher);
                watchReady.countDown();
                return; // nothing to watch
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                watchReady.countDown();
                failures.incrementAndGet();
                String message = VertexRun.describe(e);
                Vertex v = vertex;
                boolean retry = v.meta().retries(attempt);
                run.metrics().failure(v.kind().name(), !retry);
                watcher.log().warn("watch failed: {}{}", message, retry ? "; retrying" : "");
                if (!retry) {
                    watchFailure = message;
                    poke(false);
                    return;
                }
                try {
                    if (!pause(v.meta().delayMs())) return;
                } catch (InterruptedException stopped) {
                    return;
                }
            }
        }
    }

    /** How a resource's watch reaches its worker. */
    private final class ResourceWatcher implements Watcher {
        @Override
        public void changed() {
            poke(false);
        }

        @Override
        public void ready() {
            watchReady.countDown();
            // a watch (re)started after a run may have missed a change in between
            if (convergedOnce) poke(false);
        }

        @Override
        public AutoCloseable watchPath(Path path, Runnable onChange) throws java.io.IOException {
            return run.paths().watch(path, onChange);
        }

        @Override
        public Logger log() {
            Vertex v = vertex;
            return RunContext.log(v.kind().name(), id, v.origin().childManifest());
        }
    }
}
