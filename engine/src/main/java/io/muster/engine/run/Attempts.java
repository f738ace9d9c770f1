package io.muster.engine.run;

import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How a resource is tried, in a one-shot and a live run alike (the one place of these rules): each attempt
 * waits for its {@code meta.limit} token, then holds its {@code meta.sema} permits and the global one while
 * it runs; a failed attempt is made again per {@code meta.retry}, {@code meta.delay} apart. A stopped run
 * starts no attempt and cuts the waits short. A resource's watch that fails is started again by the same
 * retry rule ({@link #watch}), without a token or permits: it lasts as long as the run.
 */
final class Attempts {
    /** How the run waits between attempts. */
    @FunctionalInterface
    interface Pause {
        /** Waits {@code nanos} (a retry's delay, a rate limit); false when the run stopped meanwhile. */
        boolean pause(long nanos) throws InterruptedException;
    }

    /** How the run an attempt belongs to lets it begin and waits. */
    interface Gate extends Pause {
        /** Just before an attempt, its permits held: false when the run stopped, and nothing starts. */
        boolean begin();

        /** After an attempt that began. */
        void end();
    }

    /** Told each attempt's outcome, and whether another attempt follows. */
    interface Listener {
        void attempted(Vertex v, ResourceReport report, boolean retrying);
    }

    /** One attempt at a vertex: its outcome (failed or not), or empty when the run stopped before it began. */
    @FunctionalInterface
    private interface Attempt {
        Optional<ResourceReport> run(Vertex v) throws InterruptedException;
    }

    /** One run of a resource's watch, until it is interrupted (thrown on) or returns: its outcome. */
    @FunctionalInterface
    interface Watch {
        ResourceReport run(Vertex v) throws InterruptedException;
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
        return retried(vertex, limiter, gate, v -> permitted(v, gate, once), listener);
    }

    /**
     * Runs a resource's watch until it is stopped (an interrupt, thrown) or returns; one that fails is run
     * again per {@code meta.retry}, {@code meta.delay} apart, as a failed check is.
     */
    static Tried watch(Supplier<Vertex> vertex, Pause pause, Watch watch, Listener listener) throws InterruptedException {
        return retried(vertex, null, pause, v -> Optional.of(watch.run(v)), listener);
    }

    /** The retry rule: attempts until one does not fail or {@code meta.retry} is spent, {@code meta.delay} apart. */
    private static Tried retried(Supplier<Vertex> vertex, RateLimiter limiter, Pause pause, Attempt once, Listener listener)
            throws InterruptedException {
        ResourceReport last = null;
        for (int attempt = 0; ; attempt++) {
            if (limiter != null && !pause.pause(limiter.reserve())) return new Tried(last, true);
            Vertex v = vertex.get();
            Optional<ResourceReport> outcome = once.run(v);
            if (outcome.isEmpty()) return new Tried(last, true);
            ResourceReport report = outcome.get();
            boolean retrying = report.status() == Status.FAILED && v.meta().retries(attempt);
            listener.attempted(v, report, retrying);
            last = report;
            if (!retrying) return new Tried(report, false);
            if (!pause.pause(TimeUnit.MILLISECONDS.toNanos(v.meta().delayMs()))) return new Tried(report, true);
        }
    }

    /** One attempt holding {@code v}'s permits; empty when the run stopped before it began. */
    private Optional<ResourceReport> permitted(Vertex v, Gate gate, Function<Vertex, ResourceReport> once)
            throws InterruptedException {
        try (Semaphores.Permits permits = semaphores.acquire(v.meta().sema())) {
            if (!gate.begin()) return Optional.empty();
            try {
                return Optional.of(once.apply(v));
            } finally {
                gate.end();
            }
        }
    }
}
