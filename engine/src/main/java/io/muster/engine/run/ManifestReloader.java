package io.muster.engine.run;

import io.muster.engine.graph.Graph;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recompiles the manifest when one of its files changes (the root manifest, and every child manifest its
 * aggregates bring in) and swaps the new graph into the live run. Editors
 * save in several steps (truncate, write, rename), so it waits until the files have been quiet for a
 * moment. A manifest that no longer compiles, or whose reload fails in any way, leaves the running graph as it
 * is, and the next edit is read again: nothing ends this thread but {@link #close()}.
 */
public final class ManifestReloader implements AutoCloseable {
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final LiveRun run;
    private final Supplier<Optional<Graph>> compile;
    /** The live run's clock: the quiet period is measured and waited for on it. */
    private final Clock clock;
    private List<AutoCloseable> watches = List.of();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long lastChange;
    private boolean pending;
    private final Thread thread;

    /**
     * Reloads on the live run's clock and threads.
     *
     * @param running the graph compiled from the manifest, running now
     * @param compile the new graph, or empty when the manifest has errors (already reported)
     */
    public ManifestReloader(LiveRun run, Graph running, Supplier<Optional<Graph>> compile) throws IOException {
        this.run = run;
        this.compile = compile;
        this.clock = run.clock();
        watch(running);
        thread = run.threads().newThread(this::reloadOnChanges);
        thread.setName("muster-reload");
        thread.start();
    }

    /** Watches the manifests {@code graph} came from; the set changes when aggregates come and go. */
    private void watch(Graph graph) throws IOException {
        List<AutoCloseable> next = new ArrayList<>();
        for (Path file : graph.manifests()) next.add(run.watchPath(file, this::changed));
        closeAll(watches);
        watches = next;
    }

    private static void closeAll(List<AutoCloseable> handles) {
        for (AutoCloseable h : handles) {
            try {
                h.close();
            } catch (Exception e) {
                // a watch handle only unregisters
            }
        }
    }

    /** Reloads as if a manifest had changed (SIGHUP): data, facts and the environment may have, unwatched. */
    public void reload() {
        changed();
    }

    private void changed() {
        lock.lock();
        try {
            pending = true;
            lastChange = clock.nanoTime();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void reloadOnChanges() {
        try {
            while (true) {
                lock.lock();
                try {
                    while (!pending) changed.await();
                    long quiet;
                    while ((quiet = clock.nanoTime() - lastChange) < QUIET_NANOS) clock.awaitNanos(lock, changed, QUIET_NANOS - quiet);
                    pending = false;
                } finally {
                    lock.unlock();
                }
                try {
                    reloadOnce();
                } catch (RuntimeException | Error e) { // a bug, a stack overflow: the running graph stays, the next edit is tried
                    Logger log = LoggerFactory.getLogger("muster");
                    log.error("reloading the manifest failed ({}); the running graph stays as it is", e.toString());
                    log.debug("the reload failed here", e);
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    private void reloadOnce() throws InterruptedException {
        Optional<Graph> compiled = compile.get();
        if (compiled.isEmpty()) {
            LoggerFactory.getLogger("muster").error("the manifest has errors; the running graph stays as it is");
            return;
        }
        Graph next = compiled.get();
        run.swap(next);
        try {
            watch(next);
        } catch (IOException e) {
            LoggerFactory.getLogger("muster").warn("cannot watch the manifests: {}", e.getMessage());
        }
        LoggerFactory.getLogger("muster").info("manifest reloaded: {} resources", next.size());
    }

    @Override
    public void close() throws Exception {
        thread.interrupt();
        thread.join();
        closeAll(watches);
    }
}
