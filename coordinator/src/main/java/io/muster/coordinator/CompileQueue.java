package io.muster.coordinator;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * Hosts waiting to be compiled, each at most once in the queue and never compiled twice at once: a host
 * marked while it compiles (or while what its compile published is on its way to etcd) is compiled again after,
 * with what changed meanwhile. A compile thread hands its host's write over and takes the next host, so the
 * writes of many hosts meet in one transaction. When the last compile of a burst is written, {@code idle} is told
 * (for one log line per burst rather than one per host).
 */
final class CompileQueue {
    private final ExecutorService workers;
    private final Function<String, CompletionStage<?>> compile;
    private final Runnable idle;
    private final Set<String> queued = new HashSet<>();
    private final Set<String> running = new HashSet<>();
    private final Set<String> again = new HashSet<>();

    /** @param compile compiles a host and says when what it publishes is written (or given up) */
    CompileQueue(ExecutorService workers, Function<String, CompletionStage<?>> compile, Runnable idle) {
        this.workers = workers;
        this.compile = compile;
        this.idle = idle;
    }

    /** Queues {@code host}, unless it is queued already; once the workers stopped (the term is over), nothing. */
    synchronized void mark(String host) {
        if (running.contains(host)) {
            again.add(host);
        } else if (queued.add(host)) {
            try {
                workers.execute(() -> run(host));
            } catch (RejectedExecutionException stopped) {
                queued.remove(host);
            }
        }
    }

    private void run(String host) {
        synchronized (this) {
            queued.remove(host);
            running.add(host);
        }
        CompletionStage<?> written;
        try {
            written = compile.apply(host);
        } catch (RuntimeException | Error e) {
            finished(host);
            throw e;
        }
        written.whenComplete((ignored, failure) -> finished(host));
    }

    private void finished(String host) {
        boolean done;
        synchronized (this) {
            running.remove(host);
            if (again.remove(host)) mark(host);
            done = queued.isEmpty() && running.isEmpty();
        }
        if (done) idle.run();
    }

    /** What a compile that publishes nothing returns. */
    static CompletionStage<Void> nothing() {
        return CompletableFuture.completedFuture(null);
    }
}
