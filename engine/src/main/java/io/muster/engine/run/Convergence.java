package io.muster.engine.run;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * Whether a live run is converged: it becomes so when no resource is dirty or running and none has
 * changed anything or failed for {@code quiet} nanoseconds, and stays so until something changes or fails.
 * A new graph and its new resources' first changes are no drift: they only need {@code settle} nanoseconds
 * of quiet ({@link #settling}), which a run may make shorter than {@code quiet}. The quiet period is there
 * for drift: a resource repaired every few moments by a drift that never stops must not count as converged
 * between two repairs, and a repair restarts it whole.
 * A check under way does not end it, so a polled resource, or a watch that fires without drift, does not
 * make the state flicker; the price is that a repair under way is seen when it reports its change, not
 * when it starts. Listeners hear each transition.
 */
final class Convergence {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Set<String> busy = new HashSet<>();
    private final long quietNanos;
    private final long settleNanos;
    private final Consumer<Boolean> onTransition;
    private final Clock clock;
    private final ThreadFactory threads;
    private long lastEventful;
    private long lastSettling;
    private boolean converged;
    /** What listeners were last told; the watcher thread catches up with {@link #converged}. */
    private boolean reported;
    private boolean closed;

    /**
     * @param settleNanos the quiet a new graph's own changes need (at most {@code quietNanos})
     * @param onTransition told {@code true} on becoming converged, {@code false} on leaving it
     */
    Convergence(long quietNanos, long settleNanos, Consumer<Boolean> onTransition, Clock clock, ThreadFactory threads) {
        this.quietNanos = quietNanos;
        this.settleNanos = Math.min(settleNanos, quietNanos);
        this.onTransition = onTransition;
        this.clock = clock;
        this.threads = threads;
        this.lastSettling = clock.nanoTime(); // starting is no drift: the settling period only
        this.lastEventful = lastSettling - quietNanos;
    }

    /** Starts judging; mark what is busy first, or an empty run is converged at once. */
    void start() {
        Thread judge = threads.newThread(this::watch);
        judge.setName("muster-convergence");
        judge.start();
    }

    void busy(String id) {
        update(() -> busy.add(id));
    }

    /** {@code id} is done for now. */
    void idle(String id) {
        update(() -> busy.remove(id));
    }

    /** Something changed or failed: the quiet period starts again. */
    void eventful() {
        update(() -> {
            lastEventful = clock.nanoTime();
            converged = false; // at once, so a caller never sees it stale; it resumes after the quiet period
        });
    }

    /** A new graph arrived, or a new resource made its first change: the settling period starts again. */
    void settling() {
        update(() -> {
            lastSettling = clock.nanoTime();
            converged = false;
        });
    }

    boolean converged() {
        lock.lock();
        try {
            return converged;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until converged, at most {@code timeoutNanos}; true when converged. */
    boolean awaitConverged(long timeoutNanos) throws InterruptedException {
        long deadline = clock.nanoTime() + timeoutNanos;
        lock.lock();
        try {
            while (!converged) {
                long left = deadline - clock.nanoTime();
                if (left <= 0) return false;
                clock.awaitNanos(lock, changed, left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    void close() {
        update(() -> closed = true);
    }

    private void update(Runnable change) {
        lock.lock();
        try {
            change.run();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Flips the state when the quiet period has passed with nothing busy; {@link #eventful} ends it. */
    private void watch() {
        lock.lock();
        try {
            while (!closed) {
                // only this thread sets converged true: an end it has not reported yet is reported before it resumes
                if (reported != converged) {
                    reported = converged;
                    lock.unlock();
                    try {
                        onTransition.accept(reported);
                    } catch (RuntimeException | Error e) { // a status file that cannot be written must not stop judging
                        LoggerFactory.getLogger("muster").error("reporting convergence failed: {}", e.getMessage());
                    } finally {
                        lock.lock();
                    }
                    continue;
                }
                long now = clock.nanoTime();
                long wait = Math.max(quietNanos - (now - lastEventful), settleNanos - (now - lastSettling));
                if (!converged && busy.isEmpty() && wait <= 0) {
                    converged = true;
                    changed.signalAll();
                    continue;
                }
                if (!converged && busy.isEmpty()) clock.awaitNanos(lock, changed, wait);
                else changed.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }
}
