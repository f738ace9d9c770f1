package io.muster.coordinator;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * Hosts waiting to be compiled, each at most once in the queue and never compiled twice at once: a host
 * marked while it compiles is compiled again after, with what changed meanwhile.
 */
final class CompileQueue {
    private final ExecutorService workers;
    private final Consumer<String> compile;
    private final Set<String> queued = new HashSet<>();
    private final Set<String> running = new HashSet<>();
    private final Set<String> again = new HashSet<>();

    CompileQueue(ExecutorService workers, Consumer<String> compile) {
        this.workers = workers;
        this.compile = compile;
    }

    synchronized void mark(String host) {
        if (running.contains(host)) again.add(host);
        else if (queued.add(host)) workers.execute(() -> run(host));
    }

    private void run(String host) {
        synchronized (this) {
            queued.remove(host);
            running.add(host);
        }
        try {
            compile.accept(host);
        } finally {
            synchronized (this) {
                running.remove(host);
                if (again.remove(host)) mark(host);
            }
        }
    }
}
