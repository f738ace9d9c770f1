package io.muster.engine.health;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A run's stop as its health checks see it: no further try begins once it is given, and the sleep before
 * a try ends at once. A check's command under way is never interrupted; it finishes.
 */
public final class StopSignal {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition given = lock.newCondition();
    /** Why the run stops ({@code muster was stopped (SIGTERM)}), or null while it runs on. */
    private volatile String cause;

    /** Gives the signal; from any thread, the first cause stays. */
    public void stop(String cause) {
        lock.lock();
        try {
            if (this.cause == null) this.cause = cause;
            given.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Why the run stops, or null while it runs on. */
    public String cause() {
        return cause;
    }

    /** Waits {@code duration}, or less once the signal is given. */
    void sleep(Duration duration) throws InterruptedException {
        long nanos = duration.toNanos();
        lock.lock();
        try {
            while (cause == null && nanos > 0) nanos = given.awaitNanos(nanos);
        } finally {
            lock.unlock();
        }
    }
}
