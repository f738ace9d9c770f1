package io.muster.engine.run;

import java.util.concurrent.TimeUnit;

/**
 * {@code meta.limit} and {@code meta.burst}: a token bucket holding at most {@code burst} runs, refilled at
 * {@code limit} per second. A run over the limit waits for its token; it is delayed, never dropped, so
 * the last change is always checked.
 */
final class RateLimiter {
    private final double perNano;
    private final double capacity;
    private double tokens;
    private long refilledAt = System.nanoTime();

    RateLimiter(double limit, int burst) {
        this.perNano = limit / TimeUnit.SECONDS.toNanos(1);
        this.capacity = burst;
        this.tokens = burst;
    }

    /** Null when {@code limit} is infinite: no limiting at all. */
    static RateLimiter of(double limit, int burst) {
        return Double.isInfinite(limit) ? null : new RateLimiter(limit, burst);
    }

    void acquire() throws InterruptedException {
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            tokens = Math.min(capacity, tokens + (now - refilledAt) * perNano);
            refilledAt = now;
            tokens -= 1; // may go negative: the debt is the wait
            wait = tokens >= 0 ? 0 : (long) Math.ceil(-tokens / perNano);
        }
        if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
    }
}
