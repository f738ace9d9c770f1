package io.muster.engine.util.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The directories {@link TrustedPath#open} opened in one run, kept open so that the next file in one of them
 * costs one statx instead of a walk from "/" (four calls for every directory on the way). The file kind keeps
 * one as its session; thread-safe.
 *
 * <p>Why a kept directory is as safe to write into as a freshly walked one: muster changes what is in it
 * through its descriptor, never through its path, so what the path names later cannot redirect a change;
 * what matters is the directory itself, and that is checked again on every use, owner and mode as the walk
 * checks them. Nor can a user muster distrusts move it away and put another in its place while it is kept:
 * that takes write access to its parent, which the walk found trusted (in a sticky parent, only the
 * directory's owner, whom the walk trusted, may rename it). The statx of the path on every use (following
 * links, as the walk does those it trusts) is compared with the descriptor by device and inode, which stay the
 * directory's as long as it is held open; a path that names another directory now (a package upgrade renamed
 * one into place), or none, or the kept one no longer trusted, is walked again from "/", with the walk's
 * checks and its errors, and the new directory is kept instead.
 *
 * <p>Keys are the path and the uid of the file to be written (-1: root's), as the walk trusts a directory of
 * that user for that user's files only. At most {@code capacity} directories are kept, the least recently
 * used closed first; all are closed when the run ends ({@link #close}). Their descriptors are close-on-exec,
 * as every descriptor the walk opens, so no command muster runs inherits one.
 */
public final class TrustedDirectories implements AutoCloseable {
    /** The directories a one-shot run keeps: its files are mostly in a few, and each kept one holds a descriptor. */
    public static final int CAPACITY = 128;

    private record Key(String path, int owner) {}

    /** A kept directory, as the walk opened it, and what it was then. */
    private static final class Kept {
        final Directory walked;
        final Stat checked;
        /** How many of the {@link Directory} objects {@link #open} returned for it are not closed yet. */
        int lent;
        /** No longer kept: its descriptor is closed once the last one lent is closed. */
        boolean dropped;

        Kept(Directory walked, Stat checked) {
            this.walked = walked;
            this.checked = checked;
        }
    }

    private final int capacity;
    /** Least recently used first. Guarded by this, as are the fields of each {@link Kept} and {@code closed}. */
    private final Map<Key, Kept> kept = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    /** @param capacity how many directories to keep open; 0 keeps none (every {@link #open} walks from "/") */
    public TrustedDirectories(int capacity) {
        this.capacity = capacity;
    }

    /** The directory, trusted as {@link TrustedPath#open} says; closing it hands it back. */
    public Directory open(Path dir, int owner) throws IOException {
        if (capacity == 0) return TrustedPath.open(dir, owner);
        Key key = new Key(dir.toString(), owner);
        Kept hit = borrow(key);
        if (hit != null) {
            if (unchanged(hit, key)) return lend(hit);
            drop(key, hit);
        }
        return keep(key, TrustedPath.open(dir, owner));
    }

    private synchronized Kept borrow(Key key) {
        Kept hit = kept.get(key);
        if (hit != null) hit.lent++;
        return hit;
    }

    /** Whether the path still names the kept directory, and it is still trusted. */
    private static boolean unchanged(Kept hit, Key key) {
        Stat now;
        try {
            now = Libc.statxFollowing(key.path());
        } catch (IOException e) { // gone, or not reachable: the walk says why
            return false;
        }
        return now.sameFile(hit.checked) && TrustedPath.trusted(now, key.owner());
    }

    private Directory lend(Kept k) {
        return new Directory(k.walked.fd(), k.walked.path(), () -> giveBack(k));
    }

    private synchronized void giveBack(Kept k) {
        k.lent--;
        closeIfDone(k);
    }

    /** Stops keeping {@code k}, which the caller borrowed and gives back (another thread may have dropped it already). */
    private synchronized void drop(Key key, Kept k) {
        kept.remove(key, k);
        retire(k);
        giveBack(k);
    }

    /** No longer keeps {@code k} (once: it left the map, so nobody borrows it again). Called holding this lock. */
    private static void retire(Kept k) {
        if (k.dropped) return;
        k.dropped = true;
        closeIfDone(k);
    }

    /**
     * Closes the descriptor when it is neither kept nor lent: that happens once, as nothing lends a dropped one.
     * Called holding this lock.
     */
    private static void closeIfDone(Kept k) {
        if (k.dropped && k.lent == 0) k.walked.close();
    }

    /** Keeps what the walk opened (in place of what another thread kept meanwhile) and lends it; after {@link #close}, returns it as it is. */
    private Directory keep(Key key, Directory walked) throws IOException {
        Stat checked;
        try {
            checked = walked.stat();
        } catch (IOException e) {
            walked.close();
            throw e;
        }
        Kept k = new Kept(walked, checked);
        synchronized (this) {
            if (closed) return walked;
            Kept replaced = kept.put(key, k);
            if (replaced != null) retire(replaced);
            var eldest = kept.entrySet().iterator();
            while (kept.size() > capacity) {
                Kept old = eldest.next().getValue();
                eldest.remove();
                retire(old);
            }
            k.lent++;
        }
        return lend(k);
    }

    /** Closes every kept directory (one still in use when the last user closes it); an {@link #open} after this keeps nothing. */
    @Override
    public synchronized void close() {
        closed = true;
        kept.values().forEach(TrustedDirectories::retire);
        kept.clear();
    }
}
