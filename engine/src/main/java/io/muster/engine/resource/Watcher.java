package io.muster.engine.resource;

import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;

/** What the engine hands a resource's {@link Resource#watch}: where to signal drift, shared watches, its kind's session. */
public interface Watcher {

    /** The resource's state may have changed: the engine checks it again. Cheap, and fine to call often. */
    void changed();

    /**
     * Call once every watch is in place. The engine's first check of the resource waits for this, so a
     * change made between that check and the watch starting is never missed.
     */
    void ready();

    /**
     * Watches one path (its content, mode, owner, deletion, replacement by rename) until the returned
     * handle is closed. All resources share one inotify watch per directory, so ten thousand files in one
     * directory cost one watch. A path whose directory does not exist yet is watched from its nearest
     * existing ancestor.
     */
    AutoCloseable watchPath(Path path, Runnable onChange) throws IOException;

    /**
     * Watches the entries of directory {@code dir} (one made, changed, removed or renamed; not what is below
     * them) until the returned handle is closed; a directory that does not exist yet is watched from its
     * nearest existing ancestor, as {@link #watchPath} does.
     */
    AutoCloseable watchEntries(Path dir, Runnable onChange) throws IOException;

    /**
     * The session the resource's kind keeps for this run, the one its checks get ({@link Context#session}):
     * a watch can listen on the connection its checks use.
     *
     * @throws IOException when the session cannot open, saying which kind's and why; the next call tries again
     * @throws IllegalStateException when the kind keeps no session, or not one of {@code type}: a bug in the kind
     */
    <S> S session(Class<S> type) throws IOException, InterruptedException;

    /** A logger whose lines carry the resource's id. */
    Logger log();

    /**
     * Keeps {@code handle} (a {@link #watchPath} or {@link #watchEntries} watch) until the engine cancels the
     * watch, then closes it; also when the watch throws after this call. A watch whose handles do all its
     * watching holds them and returns after {@link #ready()}: no thread waits for the cancel, which at ten
     * thousand resources would be ten thousand parked threads.
     */
    void hold(AutoCloseable handle);

    /** Blocks until the engine cancels the watch (by interrupting this thread). */
    static void awaitCancel() throws InterruptedException {
        while (true) Thread.sleep(Long.MAX_VALUE);
    }
}
