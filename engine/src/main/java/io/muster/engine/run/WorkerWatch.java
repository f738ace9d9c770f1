package io.muster.engine.run;

import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Watcher;
import io.muster.engine.template.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;

/**
 * The watching side of a {@link Worker}: its resource's {@code watch} (or the {@code meta.poll} timer) on a
 * thread of its own, started again when it fails as {@link Attempts} says, telling the worker whenever the
 * resource may have drifted. One at a time: starting a watch ends the one running. Stopping is an interrupt,
 * and closes the shared watches the resource handed over ({@link Watcher#hold}): a resource watched by those
 * alone (a file) holds no thread once its watch is in place.
 */
final class WorkerWatch {
    private final Worker worker;
    private final WorkerRun run;
    private final CountDownLatch ready = new CountDownLatch(1);
    /** Held while a watch is started or ended. */
    private final Object lock = new Object();
    private volatile Thread thread;
    /**
     * The shared watches the running watch handed over, closed when it ends or fails. Its own monitor, not
     * {@link #lock}: a watch holds them from its thread while {@link #restart} may be waiting for that thread.
     */
    private final List<AutoCloseable> held = new ArrayList<>();
    /** The parameters, late ones rendered, of the resource being watched. */
    private volatile Params watchedWith;
    /** Why the watch gave up (its retries spent), or null. */
    private volatile String failure;

    WorkerWatch(Worker worker, WorkerRun run) {
        this.worker = worker;
        this.run = run;
    }

    /** Starts with the worker: before its first check, so nothing between them goes unseen. */
    void start(Vertex v) {
        if (v.meta().exported()) {
            ready.countDown(); // what it manages is on its collectors: nothing to watch here
        } else if (v.meta().pollSeconds() > 0) {
            ready.countDown();
            thread = start("poll " + v.id(), () -> poll(v.meta().pollSeconds()));
        } else if (v.late().isEmpty()) {
            restart(v);
        } else {
            ready.countDown(); // its late values exist after its first run: the watch starts then
        }
    }

    /** For a run that watches nothing (a one-shot run): the worker need not wait for a watch. */
    void none() {
        ready.countDown();
    }

    /** Waits until the watch is in place (or there is none to wait for). */
    void awaitReady() throws InterruptedException {
        ready.await();
    }

    String failure() {
        return failure;
    }

    /** On a swap, with {@code meta.rewatch}: a watch that gave up starts again. True when it did. */
    boolean rewatchIfFailed(Vertex next) {
        if (failure == null || !next.meta().rewatch()) return false;
        failure = null;
        restart(next);
        return true;
    }

    /**
     * The resource converged: a late-valued one starts watching after its first run, and again whenever
     * the values it reads move what it watches.
     */
    void converged(Vertex v, boolean first) {
        if (v.meta().pollSeconds() > 0 || v.meta().exported()) return;
        if (first && thread == null) {
            restart(v);
            return;
        }
        if (v.late().isEmpty() || thread == null) return;
        try {
            if (VertexRun.bind(v, run.scope(v)).equals(watchedWith)) return;
        } catch (RuntimeException | Error e) {
            return; // a value it reads went away meanwhile (or cannot be rendered): its next run says so
        }
        restart(v);
    }

    /** Asks the watch to stop, without waiting. */
    void interrupt() {
        Thread running = thread;
        if (running != null) running.interrupt();
    }

    /** Stops the watch and waits until it ended. */
    void end() throws InterruptedException {
        synchronized (lock) {
            Thread running = thread;
            if (running == null) return;
            running.interrupt();
            running.join();
            release();
        }
    }

    private void hold(AutoCloseable handle) {
        synchronized (held) {
            held.add(handle);
        }
    }

    /** Closes the shared watches handed over; one that fails to close is logged, the others still close. */
    private void release() {
        List<AutoCloseable> handles;
        synchronized (held) {
            handles = List.copyOf(held);
            held.clear();
        }
        for (AutoCloseable handle : handles) {
            try {
                handle.close();
            } catch (Exception e) {
                log(worker.vertex()).debug("closing a watch failed", e);
            }
        }
    }

    private void restart(Vertex v) {
        synchronized (lock) {
            try {
                end();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // being stopped: the stop ends the watch
                return;
            }
            Resource resource;
            try {
                Scope scope = run.scope(v);
                watchedWith = VertexRun.bind(v, scope);
                resource = VertexRun.build(v, scope);
            } catch (Throwable e) { // the run reports why it cannot be built; there is nothing to watch yet
                ready.countDown();
                return;
            }
            thread = start("watch " + v.id(), () -> watch(resource));
        }
    }

    private Thread start(String name, Runnable body) {
        Thread t = run.threads().newThread(body);
        t.setName(name);
        t.start();
        return t;
    }

    private void poll(int seconds) {
        try {
            while (true) {
                run.clock().sleep(TimeUnit.SECONDS.toNanos(seconds));
                worker.poke(false);
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    /**
     * Runs the resource's watch, started again when it fails as {@link Attempts} says ({@code meta.retry},
     * {@code meta.delay}); a watch that gives up fails the resource.
     */
    private void watch(Resource resource) {
        Watcher watcher = new ResourceWatcher();
        try {
            Attempts.watch(worker::vertex, this::delay, v -> once(resource, watcher, v), this::attempted);
        } catch (InterruptedException e) {
            // stopped
        }
    }

    /** One run of the watch: stable when it returns (nothing to watch), failed, saying why, when it throws. */
    private ResourceReport once(Resource resource, Watcher watcher, Vertex v) throws InterruptedException {
        try {
            resource.watch(watcher);
            ready.countDown();
            return ResourceReport.stable(v.id(), "nothing to watch", 0);
        } catch (InterruptedException e) {
            throw e;
        } catch (Throwable e) { // an Error too: the watch fails, its worker goes on
            release(); // what it held is watched again by its next attempt
            return ResourceReport.failed(v.id(), VertexRun.describe(e, v.id(), "watch", UnaryOperator.identity()));
        }
    }

    /** Waits before a watch is started again; a stop interrupts it. */
    private boolean delay(long nanos) throws InterruptedException {
        run.clock().sleep(nanos);
        return true;
    }

    /** A failed watch is counted like a failed check; one that gives up fails the resource. */
    private void attempted(Vertex v, ResourceReport outcome, boolean retrying) {
        if (outcome.status() != Status.FAILED) return;
        worker.watchFailed(retrying);
        log(v).warn("watch failed: {}{}", outcome.error(), retrying ? "; retrying" : "");
        if (!retrying) failure = outcome.error(); // before ready: a first check waiting for the watch sees it failed
        ready.countDown();
        if (!retrying) worker.poke(false);
    }

    /** How a resource's watch reaches its worker. */
    private final class ResourceWatcher implements Watcher {
        @Override
        public void changed() {
            worker.poke(false);
        }

        @Override
        public void ready() {
            ready.countDown();
            // a watch (re)started after a run may have missed a change in between
            if (worker.convergedOnce()) worker.poke(false);
        }

        @Override
        public void hold(AutoCloseable handle) {
            WorkerWatch.this.hold(handle);
        }

        @Override
        public AutoCloseable watchPath(Path path, Runnable onChange) throws IOException {
            return run.watchPath(path, onChange);
        }

        @Override
        public AutoCloseable watchEntries(Path dir, Runnable onChange) throws IOException {
            return run.watchEntries(dir, onChange);
        }

        @Override
        public <S> S session(Class<S> type) throws IOException, InterruptedException {
            return run.session(worker.vertex(), type);
        }

        @Override
        public Logger log() {
            return WorkerWatch.log(worker.vertex());
        }
    }

    private static Logger log(Vertex v) {
        return RunContext.log(v.kind().name(), v.id(), v.origin().childManifest());
    }
}
