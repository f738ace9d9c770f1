package io.muster.engine.run;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import org.slf4j.LoggerFactory;

/**
 * Watches paths for every resource of a run through one {@link WatchService} (on Linux, one inotify
 * instance), one watch per directory: a path is watched as a name in its parent directory, which sees its
 * content, mode and owner change (IN_MODIFY, IN_ATTRIB), its deletion and its replacement by rename; the
 * entries of a directory (a tree's) are watched in it, each entry made, changed or removed.
 * A path whose parent does not exist is watched from its nearest existing ancestor, and moves down as
 * the directories appear; a watched directory that disappears hands its paths up the same way.
 *
 * <p>An inotify watch follows its directory's inode, not its path: a directory moved away keeps its watch
 * (nothing tells the key), so one moved away and re-created at its path would leave its paths watched in
 * the moved one, and a change in the new one unseen. So an entry created, moved or deleted in a watched
 * directory that is (or is above) another watched directory checks that directory's inode, and one that is
 * no longer the directory at its path is watched afresh there, its subscribers told.
 */
final class PathWatches implements AutoCloseable {
    private final WatchService service;
    private final Thread dispatcher;
    private final Map<Path, Directory> directories = new HashMap<>();

    /**
     * One watched directory: the subscriptions keyed by the name in it they wait for, and its inode when it was
     * registered (what the key watches).
     */
    private record Directory(WatchKey key, Object inode, Map<String, List<Subscription>> byName) {}

    /** The key of the subscriptions to every entry of a directory: no entry has this name. */
    private static final String ANY_ENTRY = "/";

    private final class Subscription implements AutoCloseable {
        final Path path;
        /** Whether it waits for a change of any entry in the directory {@code path}, not of {@code path} itself. */
        final boolean entries;
        final Runnable onChange;
        Path directory; // where it is registered: its home, or an ancestor while that is missing

        Subscription(Path path, boolean entries, Runnable onChange) {
            this.path = path;
            this.entries = entries;
            this.onChange = onChange;
        }

        /** The directory it is registered in when that exists: the path's parent, or the path itself for its entries. */
        Path home() {
            return entries ? path : path.getParent();
        }

        /** The name it waits for in {@code dir}, its home or an ancestor of it. */
        String nameIn(Path dir) {
            return entries && dir.equals(path) ? ANY_ENTRY : path.getName(dir.getNameCount()).toString();
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
        return subscribe(new Subscription(path.toAbsolutePath().normalize(), false, onChange));
    }

    /** Watches every entry of directory {@code dir} (made, changed, removed), not what is below them. */
    AutoCloseable watchEntries(Path dir, Runnable onChange) throws IOException {
        return subscribe(new Subscription(dir.toAbsolutePath().normalize(), true, onChange));
    }

    private AutoCloseable subscribe(Subscription s) throws IOException {
        synchronized (this) {
            register(s);
        }
        return s;
    }

    /** Registers at its home or, while that is missing, its nearest existing ancestor. */
    private void register(Subscription s) throws IOException {
        Path dir = s.home();
        while (dir != null) {
            Path child = dir;
            try {
                Directory d = directories.get(dir);
                if (d == null) {
                    WatchKey key = dir.register(service, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY);
                    d = new Directory(key, inode(dir), new HashMap<>());
                    directories.put(dir, d);
                }
                d.byName().computeIfAbsent(s.nameIn(dir), k -> new ArrayList<>()).add(s);
                s.directory = dir;
                return;
            } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException e) {
                dir = child.getParent();
            }
        }
        throw new IOException("cannot watch " + s.path + ": no ancestor directory exists");
    }

    /** The inode of the directory at {@code dir} now, or null when none is there. */
    private static Object inode(Path dir) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return attributes.isDirectory() ? attributes.fileKey() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The subscriptions of watched directories at or below {@code entry} whose key watches another directory than
     * the one at their path now (moved away, another put there): they are registered again, where their paths
     * are now, and returned to be told.
     */
    private List<Subscription> rehome(Path entry) {
        List<Subscription> moved = new ArrayList<>();
        for (Path watched : List.copyOf(directories.keySet())) {
            Directory d = directories.get(watched);
            if (!watched.startsWith(entry) || Objects.equals(inode(watched), d.inode())) continue;
            d.key().cancel();
            directories.remove(watched);
            d.byName().values().forEach(moved::addAll);
        }
        for (Subscription s : moved) {
            try {
                register(s);
            } catch (IOException e) {
                LoggerFactory.getLogger(PathWatches.class).warn("{}", e.getMessage());
            }
        }
        return moved;
    }

    private void unregister(Subscription s) {
        Directory d = directories.get(s.directory);
        if (d == null) return;
        String name = s.nameIn(s.directory);
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

    private void dispatch() {
        try {
            while (true) {
                WatchKey key = service.take();
                Path dir = (Path) key.watchable();
                Set<Subscription> notify = new LinkedHashSet<>(); // a batch may name one subscription twice
                Set<Subscription> rehomed = new HashSet<>();
                synchronized (this) {
                    Directory d = directories.get(dir);
                    if (d != null && d.key() != key) d = null; // the key of a directory watched afresh since: stale
                    for (WatchEvent<?> event : key.pollEvents()) {
                        if (d == null) break;
                        if (event.kind() == OVERFLOW) {
                            d.byName().values().forEach(notify::addAll);
                            rehomed.addAll(rehome(dir));
                            continue;
                        }
                        notify.addAll(d.byName().getOrDefault(event.context().toString(), List.of()));
                        notify.addAll(d.byName().getOrDefault(ANY_ENTRY, List.of()));
                        if (event.kind() != ENTRY_MODIFY) rehomed.addAll(rehome(dir.resolve(event.context().toString())));
                    }
                    // gone: its directory was removed (not when the key was cancelled above to watch its path afresh)
                    boolean gone = !key.reset() && d != null && directories.get(dir) == d;
                    if (gone) {
                        directories.remove(dir);
                        d.byName().values().forEach(notify::addAll);
                    }
                    // Subscriptions parked at an ancestor move down when their directories appear, and up
                    // when a directory goes away.
                    notify.removeAll(rehomed);
                    for (Subscription s : List.copyOf(notify)) {
                        if (!gone && s.home().equals(s.directory)) continue;
                        if (!gone) unregister(s);
                        try {
                            register(s);
                        } catch (IOException e) {
                            LoggerFactory.getLogger(PathWatches.class).warn("{}", e.getMessage());
                        }
                    }
                    notify.addAll(rehomed);
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
