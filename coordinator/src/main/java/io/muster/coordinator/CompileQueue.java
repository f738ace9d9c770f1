package io.muster.coordinator;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Hosts waiting to be compiled, each at most once in the queue and never compiled twice at once: a host
 * marked while it compiles is compiled again after, with what changed meanwhile. When the last compile of a
 * burst ends, {@code idle} is told (for one log line per burst rather than one per host).
 */
final class CompileQueue {
    private final ExecutorService workers;
    private final Consumer<String> compile;
    private final Runnable idle;
    private final Set<String> queued = new HashSet<>();
    private final Set<String> running = new HashSet<>();
    private final Set<String> again = new HashSet<>();

    CompileQueue(ExecutorService workers, Consumer<String> compile, Runnable idle) {
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
        try {
            compile.accept(host);
        } finally {
            boolean done;
            synchronized (this) {
                running.remove(host);
                if (again.remove(host)) mark(host);
                done = queued.isEmpty() && running.isEmpty();
            }
            if (done) idle.run();
        }
    }
}
