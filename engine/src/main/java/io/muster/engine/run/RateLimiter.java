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
    private final Clock clock;
    private double tokens;
    private long refilledAt;

    RateLimiter(double limit, int burst, Clock clock) {
        this.clock = clock;
        this.refilledAt = clock.nanoTime();
        this.perNano = limit / TimeUnit.SECONDS.toNanos(1);
        this.capacity = burst;
        this.tokens = burst;
    }

    /** Null when {@code limit} is infinite: no limiting at all. */
    static RateLimiter of(double limit, int burst, Clock clock) {
        return Double.isInfinite(limit) ? null : new RateLimiter(limit, burst, clock);
    }

    /**
     * Takes a token: how many nanoseconds to wait before the run it is for (0: at once). The caller waits
     * (so that a stop can cut the wait short); the token is spent either way.
     */
    synchronized long reserve() {
        long now = clock.nanoTime();
        tokens = Math.min(capacity, tokens + (now - refilledAt) * perNano);
        refilledAt = now;
        tokens -= 1; // may go negative: the debt is the wait
        return tokens >= 0 ? 0 : (long) Math.ceil(-tokens / perNano);
    }
}
