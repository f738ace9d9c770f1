package io.muster.engine.resource;

import java.nio.file.Path;
import org.slf4j.Logger;

/** What the engine hands a resource's {@link Resource#watch}: where to signal drift, and shared watches. */
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
    AutoCloseable watchPath(Path path, Runnable onChange) throws java.io.IOException;

    /** A logger whose lines carry the resource's id. */
    Logger log();

    /** Blocks until the engine cancels the watch (by interrupting this thread). */
    static void awaitCancel() throws InterruptedException {
        while (true) Thread.sleep(Long.MAX_VALUE);
    }
}
