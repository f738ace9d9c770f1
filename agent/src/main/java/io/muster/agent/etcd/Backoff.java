package io.muster.agent.etcd;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long to wait before trying etcd again: doubling from {@code first} up to {@code max}, each wait drawn
 * at random between half and all of it ("equal jitter"), so that a fleet whose etcd restarted does not come
 * back in one stampede. {@link #reset()} after a success.
 */
public final class Backoff {
    private final long firstMillis;
    private final long maxMillis;
    private long nextMillis;

    public Backoff(Duration first, Duration max) {
        this.firstMillis = Math.max(1, first.toMillis());
        this.maxMillis = Math.max(firstMillis, max.toMillis());
        this.nextMillis = firstMillis;
    }

    /** A coordinator's: from 200 ms up to 10 s (few of them, and a fleet waits on their leader). */
    public static Backoff forCoordinator() {
        return new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10));
    }

    /** The usual agent backoff: from 200 ms up to 30 s. */
    public static Backoff forAgent() {
        return new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));
    }

    /** The next wait, and doubles the one after it. */
    public synchronized Duration next() {
        long ceiling = nextMillis;
        nextMillis = Math.min(maxMillis, nextMillis * 2);
        return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }

    public synchronized void reset() {
        nextMillis = firstMillis;
    }
}
