package io.muster.engine.run;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import org.slf4j.LoggerFactory;

/**
 * Watches paths for every resource of a run through one {@link WatchService} (on Linux, one inotify
 * instance), one watch per directory: a path is watched as a name in its parent directory, which sees its
 * content, mode and owner change (IN_MODIFY, IN_ATTRIB), its deletion and its replacement by rename.
 * A path whose parent does not exist is watched from its nearest existing ancestor, and moves down as
 * the directories appear; a watched directory that disappears hands its paths up the same way.
 */
final class PathWatches implements AutoCloseable {
    private final WatchService service;
    private final Thread dispatcher;
    private final Map<Path, Directory> directories = new HashMap<>();

    /** One watched directory: the subscriptions keyed by the name in it they wait for. */
    private record Directory(WatchKey key, Map<String, List<Subscription>> byName) {}

    private final class Subscription implements AutoCloseable {
        final Path path;
        final Runnable onChange;
        Path directory; // where it is registered: the path's parent, or an ancestor while that is missing

        Subscription(Path path, Runnable onChange) {
            this.path = path;
            this.onChange = onChange;
        }

        @Override
        public void close() {
            synchronized (PathWatches.this) {
                unregister(this);
            }
        }
    }

    /** @param threads makes the thread that hands each change to its subscribers (the run's, as for its workers) */
    PathWatches(ThreadFactory threads) throws IOException {
        service = FileSystems.getDefault().newWatchService();
        dispatcher = threads.newThread(this::dispatch);
        dispatcher.start();
    }

    AutoCloseable watch(Path path, Runnable onChange) throws IOException {
        Subscription s = new Subscription(path.toAbsolutePath().normalize(), onChange);
        synchronized (this) {
            register(s);
        }
        return s;
    }

    /** Registers at the nearest existing ancestor of the path (its parent, normally). */
    private void register(Subscription s) throws IOException {
        Path dir = s.path.getParent();
        while (dir != null) {
            Path child = dir;
            try {
                Directory d = directories.get(dir);
                if (d == null) {
                    d = new Directory(dir.register(service, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY), new HashMap<>());
                    directories.put(dir, d);
                }
                String name = nameBelow(dir, s.path);
                d.byName().computeIfAbsent(name, k -> new ArrayList<>()).add(s);
                s.directory = dir;
                return;
            } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException e) {
                dir = child.getParent();
            }
        }
        throw new IOException("cannot watch " + s.path + ": no ancestor directory exists");
    }

    private void unregister(Subscription s) {
        Directory d = directories.get(s.directory);
        if (d == null) return;
        String name = nameBelow(s.directory, s.path);
        List<Subscription> list = d.byName().get(name);
        if (list != null) {
            list.remove(s);
            if (list.isEmpty()) d.byName().remove(name);
        }
        if (d.byName().isEmpty()) {
            d.key().cancel();
            directories.remove(s.directory);
        }
    }

    /** The first name below {@code dir} on the way to {@code path}. */
    private static String nameBelow(Path dir, Path path) {
        return path.getName(dir.getNameCount()).toString();
    }

    private void dispatch() {
        try {
            while (true) {
                WatchKey key = service.take();
                Path dir = (Path) key.watchable();
                Set<Subscription> notify = new LinkedHashSet<>(); // a batch may name one subscription twice
                synchronized (this) {
                    Directory d = directories.get(dir);
                    for (WatchEvent<?> event : key.pollEvents()) {
                        if (d == null) break;
                        if (event.kind() == OVERFLOW) d.byName().values().forEach(notify::addAll);
                        else notify.addAll(d.byName().getOrDefault(event.context().toString(), List.of()));
                    }
                    boolean gone = !key.reset();
                    if (d != null && gone) {
                        directories.remove(dir);
                        d.byName().values().forEach(notify::addAll);
                    }
                    // Subscriptions parked at an ancestor move down when their directories appear, and up
                    // when a directory goes away.
                    for (Subscription s : List.copyOf(notify)) {
                        if (!gone && s.path.getParent().equals(s.directory)) continue;
                        if (!gone) unregister(s);
                        try {
                            register(s);
                        } catch (IOException e) {
                            LoggerFactory.getLogger(PathWatches.class).warn("{}", e.getMessage());
                        }
                    }
                }
                for (Subscription s : notify) {
                    try {
                        s.onChange.run();
                    } catch (RuntimeException e) { // one subscriber's bug must not end every watch
                        LoggerFactory.getLogger(PathWatches.class).error("watch callback for {} failed", s.path, e);
                    }
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed
        }
    }

    @Override
    public void close() throws IOException {
        service.close();
        dispatcher.interrupt();
    }
}
