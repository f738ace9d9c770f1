package io.muster.engine.run;

import io.muster.engine.graph.Graph;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Recompiles the manifest when one of its files changes and swaps the new graph into the live run. Editors
 * save in several steps (truncate, write, rename), so it waits until the files have been quiet for a
 * moment. A manifest that no longer compiles leaves the running graph as it is.
 */
public final class ManifestReloader implements AutoCloseable {
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final LiveRun run;
    private final Supplier<Graph> compile;
    private final List<AutoCloseable> watches = new ArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long lastChange;
    private boolean pending;
    private final Thread thread;

    /** @param compile the new graph, or null when the manifest has errors (already reported) */
    public ManifestReloader(LiveRun run, List<Path> files, Supplier<Graph> compile) throws IOException {
        this.run = run;
        this.compile = compile;
        for (Path file : files) watches.add(run.paths().watch(file, this::changed));
        thread = Thread.ofVirtual().name("muster-reload").start(this::reload);
    }

    private void changed() {
        lock.lock();
        try {
            pending = true;
            lastChange = System.nanoTime();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void reload() {
        try {
            while (true) {
                lock.lock();
                try {
                    while (!pending) changed.await();
                    long quiet;
                    while ((quiet = System.nanoTime() - lastChange) < QUIET_NANOS) changed.awaitNanos(QUIET_NANOS - quiet);
                    pending = false;
                } finally {
                    lock.unlock();
                }
                Graph next = compile.get();
                if (next == null) {
                    LoggerFactory.getLogger("muster").error("the manifest has errors; the running graph stays as it is");
                    continue;
                }
                run.swap(next);
                LoggerFactory.getLogger("muster").info("manifest reloaded: {} resources", next.size());
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    @Override
    public void close() throws Exception {
        thread.interrupt();
        thread.join();
        for (AutoCloseable w : watches) w.close();
    }
}
