package io.muster.agent.etcd;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on an object's monitor for a while, ended early by a stop (its setter calls {@code notifyAll}). */
public final class Waits {
    private Waits() {}

    /**
     * Waits {@code wait} on {@code lock}'s monitor, or until {@code stopped} holds (checked under it).
     *
     * @return false when stopped or interrupted, true when the time passed
     */
    public static boolean pause(Object lock, Duration wait, BooleanSupplier stopped) {
        long until = System.nanoTime() + wait.toNanos();
        synchronized (lock) {
            try {
                for (long left; !stopped.getAsBoolean() && (left = until - System.nanoTime()) > 0; ) {
                    lock.wait(Math.max(1, left / 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            return !stopped.getAsBoolean();
        }
    }
}
