package io.muster.engine.run;

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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.LoggerFactory;

/**
 * Keeps one resource converged for as long as it is in the graph: a loop, on a thread started when it is
 * given work and ended when it has none, that checks and repairs it whenever it is dirty and everything it
 * depends on has converged, while its {@link WorkerWatch}
 * watches it (or polls it, with {@code meta.poll}) and marks it dirty when it may have drifted. It sees the
 * run only through {@link WorkerRun}.
 *
 * <p>Threads: the loop is the only writer of {@link #state}, {@link #failure}, {@link #convergedOnce},
 * {@link #failing} and {@link #last} (volatile: dependents, swaps and reports read them without a lock).
 * Any thread may {@link #poke} or {@link #wake} it. {@link #lock} guards the work it has been given
 * ({@link #work}) and its {@link #phase}. Dependents read {@link #state()} without locks; a worker publishes
 * its state before it wakes them, and they look again on every wake-up, so no wake-up is lost.
 */
final class Worker {
    /** What dependents see: whether they may run, must wait, or are blocked by a failure. */
    enum State { PENDING, CONVERGED, FAILED }

    /**
     * Where the loop is, as a stop sees it: waiting (a stop interrupts it), in an attempt (a stop lets it
     * finish, never interrupts it), or told to stop (once the attempt under way, if any, has finished).
     */
    private enum Phase {
        WAITING, ATTEMPTING, STOPPING_AFTER_ATTEMPT, STOPPING;

        boolean stopping() {
            return this == STOPPING_AFTER_ATTEMPT || this == STOPPING;
        }
    }

    private enum Failing { NONE, SOFT, HARD }

    /**
     * The work given to the loop since it last took it: whether to look again at all ({@code signalled}),
     * whether to check ({@code dirty}), with a refresh, and (an aggregate) whether a member changed.
     */
    private static final class Work {
        boolean signalled = true;
        boolean dirty = true;
        boolean refresh;
        boolean membersChanged;
    }

    private final WorkerRun run;
    private final String id;
    private volatile Vertex vertex;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition signal = lock.newCondition();
    private final Work work = new Work();
    private Phase phase = Phase.WAITING;

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
    /** Whether {@link #start} was called: from then on a signal launches the loop. Guarded by {@link #lock}. */
    private boolean started;
    /**
     * Its loop while it has work, launched under {@link #lock}; null while idle (an idle resource holds no
     * thread: ten thousand parked loops cost tens of megabytes of stacks). A one-shot run's settled loop
     * stays set, so nothing launches it again.
     */
    private Thread loop;
    private final WorkerWatch watch;

    Worker(WorkerRun run, Vertex vertex) {
        this.run = run;
        this.id = vertex.id();
        this.vertex = vertex;
        this.limiter = RateLimiter.of(vertex.meta().limit(), vertex.meta().burst(), run.clock());
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
        run.events().busy(id, true);
        if (run.watches()) watch.start(vertex);
        else watch.none();
        lock.lock();
        try {
            started = true;
            // a dependency still pending wakes it when it is done: until then it needs no thread (a graph of
            // 10,000 files under one directory starts 10,000 loops once the directory is there, not before)
            if (firstDependency(State.PENDING, true) == null) launch();
        } finally {
            lock.unlock();
        }
    }

    /** Starts the loop unless one runs or it was stopped (a one-shot run stopped while its graph is swapped in). Under {@link #lock}. */
    private void launch() {
        if (!started || loop != null || phase.stopping()) return;
        loop = run.threads().newThread(this::loop);
        loop.setName(id);
        loop.start();
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
        give(false, refreshIt);
    }

    /** For an aggregate: one of its members changed something. */
    void memberChanged() {
        give(true, false);
    }

    private void give(boolean memberChanged, boolean refreshIt) {
        lock.lock();
        try {
            if (phase.stopping()) return; // a late watch callback: a stopped resource must not stay busy
            work.dirty = true;
            work.refresh |= refreshIt;
            work.membersChanged |= memberChanged;
            work.signalled = true;
            run.events().busy(id, true);
            signal.signalAll();
            launch();
        } finally {
            lock.unlock();
        }
    }

    /** A dependency's state moved: look again whether this one may run. */
    void wake() {
        lock.lock();
        try {
            work.signalled = true;
            signal.signalAll();
            launch();
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
            for (WorkerRun.Link dependency : run.dependencies(w.id)) {
                if (seen.add(dependency.worker().id)) pending.push(dependency.worker());
            }
        }
        return false;
    }

    /** Stops watching and checking; a check or apply under way finishes (see {@link #awaitStopped}). */
    void requestStop() {
        lock.lock();
        try {
            phase = switch (phase) {
                case ATTEMPTING, STOPPING_AFTER_ATTEMPT -> Phase.STOPPING_AFTER_ATTEMPT;
                case WAITING, STOPPING -> {
                    if (loop != null) loop.interrupt();
                    yield Phase.STOPPING;
                }
            };
            signal.signalAll();
        } finally {
            lock.unlock();
        }
        watch.interrupt();
    }

    void awaitStopped() throws InterruptedException {
        Thread running;
        lock.lock();
        try {
            running = loop;
        } finally {
            lock.unlock();
        }
        if (running != null) running.join();
        watch.end(); // the loop may have started it after requestStop (a first apply was under way)
        setFailing(Failing.NONE);
        run.events().busy(id, false);
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
                    if (phase.stopping()) return;
                    if (!work.signalled) { // idle: the next signal launches a loop again (see launch)
                        loop = null;
                        return;
                    }
                    work.signalled = false;
                    if (!work.dirty) continue;
                } finally {
                    lock.unlock();
                }
                try {
                    Worker blocker = run.failuresBlock() ? firstDependency(State.FAILED, !run.aggregate(vertex)) : null;
                    if (watch.failure() != null) failWatch();
                    else if (blocker != null) blockedBy(blocker);
                    else if (firstDependency(State.PENDING, true) == null) converge();
                    // else: a dependency is still converging, and wakes this one when it is done
                    if (!run.watches() && state != State.PENDING) return; // a one-shot run: settled once is done

                } catch (RuntimeException | Error e) { // a bug or a JVM error outside the resource: keep the worker, and say so
                    LoggerFactory.getLogger("muster").debug("{}: internal error", id, e); // the trace for --debug; the report says what
                    failedOutsideItsRun("internal error: " + e);
                }
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    /** @param members whether an aggregate's members count (a failed member fails it, it does not skip it) */
    private Worker firstDependency(State wanted, boolean members) {
        for (WorkerRun.Link dependency : run.dependencies(id)) {
            if (!members && dependency.edge().reason() == EdgeReason.CHILD) continue;
            if (wanted == State.FAILED && !dependency.edge().reason().blocksOnFailure()) continue;
            if (dependency.worker().state() == wanted) return dependency.worker();
        }
        return null;
    }

    /** Checks and, unless in noop, repairs, as {@link Attempts} says (rate limit, semaphores, retries). */
    private void converge() throws InterruptedException {
        boolean refreshNow;
        boolean membersChanged;
        lock.lock();
        try {
            work.dirty = false;
            refreshNow = work.refresh;
            work.refresh = false;
            membersChanged = work.membersChanged;
            work.membersChanged = false;
        } finally {
            lock.unlock();
        }
        state = State.PENDING;
        Map<String, Object> before = run.outputs(id);
        Attempts.Tried tried = run.attempts().run(() -> vertex, limiter, gate,
                v -> run.attempt(v, refreshNow, membersChanged), this::attempted);
        ResourceReport report = tried.last();
        if (tried.stopped()) return;
        if (report.status() != Status.FAILED) {
            succeeded(vertex, report, !before.equals(run.outputs(id)));
        } else {
            setFailing(Failing.HARD);
            fail(Propagation.blockedBy(id));
        }
    }

    /** How a stop reaches the attempts of this worker: none begins once stopping, waits end at once. */
    private final Attempts.Gate gate = new Attempts.Gate() {
        @Override
        public boolean begin() {
            lock.lock();
            try {
                if (phase.stopping() || run.halted()) return false;
                phase = Phase.ATTEMPTING;
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void end() {
            lock.lock();
            try {
                phase = phase == Phase.ATTEMPTING ? Phase.WAITING : Phase.STOPPING;
                Thread.interrupted(); // a stop that came during the attempt is seen through the phase
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean pause(long nanos) throws InterruptedException {
            lock.lock();
            try {
                return run.clock().pause(lock, signal, () -> phase.stopping() || run.halted(), nanos);
            } finally {
                lock.unlock();
            }
        }
    };

    /** One attempt's outcome: counted and reported; a failure that will be retried makes it fail softly. */
    private void attempted(Vertex v, ResourceReport outcome, boolean retrying) {
        ResourceReport report = VertexRun.placed(v, outcome);
        checks.incrementAndGet();
        if (report.status() == Status.CHANGED) applies.incrementAndGet();
        if (report.status() == Status.FAILED) failures.incrementAndGet();
        last = report;
        run.events().checked(v, report, retrying, !convergedOnce && report.status() != Status.FAILED);
        if (report.status() != Status.FAILED) return;
        run.events().failure(v, !retrying);
        if (retrying) setFailing(Failing.SOFT);
    }

    private void succeeded(Vertex v, ResourceReport report, boolean outputsChanged) {
        setFailing(Failing.NONE);
        boolean changed = report.status() == Status.CHANGED;
        boolean first = !convergedOnce;
        convergedOnce = true;
        if (first) run.realizeChanged();
        failure = null;
        // reported before it counts as converged: a dependent woken by another dependency must not run, and be
        // reported, before this one is (a one-shot run reports in dependency order)
        run.events().settled(this);
        state = State.CONVERGED;
        for (WorkerRun.Link link : run.dependents(id)) {
            Worker dependent = link.worker();
            EdgeReason reason = link.edge().reason();
            if (reason == EdgeReason.CHILD && changed && v.changeIsRealTo(dependent.vertex())) dependent.memberChanged();
            else if (changed || outputsChanged && reason == EdgeReason.LOOKUP) dependent.poke(Propagation.refreshes(link.edge(), v, dependent.vertex(), changed));
            else dependent.wake();
        }
        if (run.watches()) watch.converged(v, first);
        idleUnlessDirty();
    }

    private void fail(String why) {
        failure = why;
        run.events().settled(this); // before it counts as failed, as in succeeded
        state = State.FAILED;
        run.realizeChanged();
        for (WorkerRun.Link link : run.dependents(id)) {
            if (link.edge().reason() == EdgeReason.CHILD) link.worker().poke(false); // the aggregate now fails, naming how many
            else link.worker().wake();
        }
        idleUnlessDirty();
    }

    /** A dependency failed: this one is skipped, and blocks its own dependents, until it recovers. */
    private void blockedBy(Worker dependency) {
        String why = dependency.failure();
        if (why == null) return; // it recovered meanwhile
        if (state != State.FAILED || !why.equals(failure)) {
            last = VertexRun.placed(vertex, ResourceReport.skipped(id, why));
            run.events().report(last, false);
        }
        fail(why);
        run.events().busy(id, false); // still dirty, to run once the dependency recovers, but not busy
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
            work.dirty = false;
        } finally {
            lock.unlock();
        }
        if (state != State.FAILED) { // each failed attempt of a watch was counted by the watch itself
            last = VertexRun.placed(vertex, ResourceReport.failed(id, why));
            run.events().report(last, true);
            setFailing(Failing.HARD);
        }
        fail(Propagation.blockedBy(id));
    }

    private void idleUnlessDirty() {
        lock.lock();
        try {
            if (!work.dirty) run.events().busy(id, false);
        } finally {
            lock.unlock();
        }
    }

    private void setFailing(Failing next) {
        Failing previous = failing;
        if (previous == next) return;
        failing = next;
        if (next == Failing.SOFT) run.realizeChanged();
        if (previous != Failing.NONE) run.events().failing(vertex, previous == Failing.HARD, -1);
        if (next != Failing.NONE) run.events().failing(vertex, next == Failing.HARD, 1);
    }

    /** An attempt of its watch failed: counted like a failed check; {@code retry} when another follows. */
    void watchFailed(boolean retry) {
        failures.incrementAndGet();
        run.events().failure(vertex, !retry);
    }
}
