package io.muster.engine.resource.file;

import io.muster.engine.resource.Watcher;
import io.muster.engine.util.fs.Directory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;

/**
 * Watches the entries of every directory of some trees (a copied tree and its source), following them as they
 * change: a directory made in one is watched from then on, one removed no longer. The watch is only a hint to
 * check again (the check walks the trees through descriptors), so reading the trees by path here is fine.
 */
final class TreeWatch implements AutoCloseable {
    private final Watcher watcher;
    private final List<Path> roots;
    private final Map<Path, AutoCloseable> watched = new HashMap<>();
    private final List<AutoCloseable> rootWatches = new ArrayList<>();
    /** Released by every change: the watch's thread then looks for directories made or removed. */
    private final Semaphore changed = new Semaphore(0);

    TreeWatch(Watcher watcher, List<Path> roots) {
        this.watcher = watcher;
        this.roots = roots;
    }

    /** Watches until the engine cancels the watch (an interrupt). */
    void run() throws IOException, InterruptedException {
        for (Path root : roots) rootWatches.add(watcher.watchPath(root, this::changed)); // the root itself replaced
        follow();
        watcher.ready();
        while (true) {
            changed.acquire();
            changed.drainPermits();
            if (follow()) watcher.changed(); // what happened in a new directory before its watch began
        }
    }

    private void changed() {
        watcher.changed();
        changed.release();
    }

    /** Watches the directories there are now, and no others; true when it watches new ones. */
    private boolean follow() throws IOException {
        Set<Path> now = new LinkedHashSet<>();
        boolean whole = true;
        for (Path root : roots) {
            now.add(root);
            whole &= directoriesBelow(root, now);
        }
        boolean added = false;
        for (Path dir : now) {
            if (watched.containsKey(dir)) continue;
            watched.put(dir, watcher.watchEntries(dir, this::changed));
            added = true;
        }
        for (var it = watched.entrySet().iterator(); it.hasNext(); ) {
            var entry = it.next();
            if (!whole || now.contains(entry.getKey())) continue; // a walk cut short: none is known to be gone
            close(entry.getValue());
            it.remove();
        }
        return added;
    }

    /** Adds the directories below {@code root} to {@code found}; false when the walk was cut short. */
    private static boolean directoriesBelow(Path root, Set<Path> found) {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) return true;
        try (Stream<Path> all = Files.walk(root, Directory.MAX_TREE_DEPTH)) {
            all.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).forEach(found::add);
            return true;
        } catch (IOException | UncheckedIOException e) {
            return false; // changing as it is walked: the change that comes with it walks again
        }
    }

    private static void close(AutoCloseable handle) {
        try {
            handle.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing a watch cannot fail", e);
        }
    }

    @Override
    public void close() {
        watched.values().forEach(TreeWatch::close);
        rootWatches.forEach(TreeWatch::close);
    }
}
