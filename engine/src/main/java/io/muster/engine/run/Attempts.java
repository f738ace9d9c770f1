package io.muster.engine.run;

import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How a resource is tried, in a one-shot and a live run alike (the one place of these rules): each attempt
 * waits for its {@code meta.limit} token, then holds its {@code meta.sema} permits and the global one while
 * it runs; a failed attempt is made again per {@code meta.retry}, {@code meta.delay} apart. A stopped run
 * starts no attempt and cuts the waits short.
 */
final class Attempts {
    /** How the run an attempt belongs to lets it begin and waits. */
    interface Gate {
        /** Just before an attempt, its permits held: false when the run stopped, and nothing starts. */
        boolean begin();

        /** After an attempt that began. */
        void end();

        /** Waits {@code nanos} (a retry's delay, a rate limit); false when the run stopped meanwhile. */
        boolean pause(long nanos) throws InterruptedException;
    }

    /** Told each attempt's outcome, and whether another attempt follows. */
    interface Listener {
        void attempted(Vertex v, ResourceReport report, boolean retrying);
    }

    /** @param last the last attempt's outcome, null when none began; @param stopped whether the run stopped it */
    record Tried(ResourceReport last, boolean stopped) {}

    private final Semaphores semaphores;

    Attempts(Semaphores semaphores) {
        this.semaphores = semaphores;
    }

    /**
     * Tries until an attempt does not fail or the retries are spent.
     *
     * @param vertex the vertex to try, read again before each attempt (a live run may rebind it)
     * @param limiter its {@code meta.limit}, or null
     * @param once one attempt
     */
    Tried run(Supplier<Vertex> vertex, RateLimiter limiter, Gate gate, Function<Vertex, ResourceReport> once,
              Listener listener) throws InterruptedException {
        ResourceReport last = null;
        for (int attempt = 0; ; attempt++) {
            if (limiter != null && !gate.pause(limiter.reserve())) return new Tried(last, true);
            Vertex v = vertex.get();
            ResourceReport report;
            try (Semaphores.Permits permits = semaphores.acquire(v.meta().sema())) {
                if (!gate.begin()) return new Tried(last, true);
                try {
                    report = once.apply(v);
                } finally {
                    gate.end();
                }
            }
            boolean retrying = report.status() == Status.FAILED && v.meta().retries(attempt);
            listener.attempted(v, report, retrying);
            last = report;
            if (!retrying) return new Tried(report, false);
            if (!gate.pause(TimeUnit.MILLISECONDS.toNanos(v.meta().delayMs()))) return new Tried(report, true);
        }
    }
}
