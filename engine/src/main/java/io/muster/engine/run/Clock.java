package io.muster.engine.run;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The time a run reads and waits on: {@code meta.delay} between retries, {@code meta.limit}, the quiet
 * period of convergence. Injected so that tests can drive it by hand ({@code FakeClock}) instead of sleeping.
 * A wait may end early (a signal, a spurious wake-up); callers look at {@link #nanoTime} again, as they must
 * with {@link Condition#awaitNanos} anyway.
 */
interface Clock {
    /** Monotonic nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Waits about {@code nanos}; interrupted like {@link Thread#sleep}. */
    void sleep(long nanos) throws InterruptedException;

    /** {@link Condition#awaitNanos} on this clock, {@code lock} (the condition's) held: woken by a signal or when the time has passed. */
    void awaitNanos(Lock lock, Condition condition, long nanos) throws InterruptedException;

    /**
     * Waits {@code nanos} on {@code condition}, {@code lock} held, unless {@code stopped} turns true first (its
     * setter signals {@code condition}); false when stopped.
     */
    default boolean pause(Lock lock, Condition condition, BooleanSupplier stopped, long nanos) throws InterruptedException {
        long deadline = nanoTime() + nanos;
        while (!stopped.getAsBoolean()) {
            long left = deadline - nanoTime();
            if (left <= 0) return true;
            awaitNanos(lock, condition, left);
        }
        return false;
    }

    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }

        @Override
        public void awaitNanos(Lock lock, Condition condition, long nanos) throws InterruptedException {
            condition.awaitNanos(nanos);
        }
    };
}
