package io.muster.engine.util.fs;

import static io.muster.engine.util.fs.Libc.EEXIST;
import static io.muster.engine.util.fs.Libc.ENOENT;
import static io.muster.engine.util.fs.Libc.O_CLOEXEC;
import static io.muster.engine.util.fs.Libc.O_CREAT;
import static io.muster.engine.util.fs.Libc.O_EXCL;
import static io.muster.engine.util.fs.Libc.O_NOFOLLOW;
import static io.muster.engine.util.fs.Libc.O_WRONLY;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A file being written to take another's place: created exclusively, without following links, mode 0600
 * (no one else can open it while its content is written); the final owner and mode are set on its
 * descriptor, then it is synced and renamed over the target, and the directory synced. Closed before commit, it is removed.
 */
public final class TempFile implements AutoCloseable {
    static final String MARK = ".muster-";

    /** Temp files not yet committed or closed; its lock also orders creating and closing them with {@link #removeAll}. */
    private static final Set<TempFile> OPEN = new HashSet<>();
    private static boolean stopped;

    private final Directory dir;
    private final String target;
    private final String name;
    private final int fd;
    private boolean committed;

    private TempFile(Directory dir, String target, String name, int fd) {
        this.dir = dir;
        this.target = target;
        this.name = name;
        this.fd = fd;
    }

    /** A new random temp name for {@code target}: {@code .TARGET.muster-<hex>}. */
    static String tempName(String target) {
        return "." + target + MARK + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }

    static TempFile create(Directory dir, String target) throws IOException {
        while (true) {
            String name = tempName(target);
            synchronized (OPEN) {
                if (stopped) throw new IOException("muster is exiting; " + dir.pathOf(target) + " was left as it was");
                try {
                    TempFile temp = new TempFile(dir, target, name, Libc.openat(dir.fd(), name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600, dir.pathOf(name)));
                    OPEN.add(temp);
                    return temp;
                } catch (Libc.Errno e) {
                    if (e.errno == ENOENT) throw new IOException(dir.path() + " was removed while muster wrote " + dir.pathOf(target) + " in it");
                    if (e.errno != EEXIST) throw e;
                }
            }
        }
    }

    /**
     * For a forced stop ({@code Runtime.halt}, which runs no cleanup): removes every temp file being written
     * and lets no new one be made, so an exit at once leaves no {@code .NAME.muster-<hex>} behind.
     */
    public static void removeAll() {
        synchronized (OPEN) {
            stopped = true;
            for (TempFile temp : OPEN) {
                try {
                    temp.dir.unlink(temp.name);
                } catch (IOException e) { // left for the next run of that file to remove
                }
            }
        }
    }

    public void write(byte[] bytes) throws IOException {
        write(bytes, bytes.length);
    }

    /** Writes the first {@code length} bytes of {@code bytes} (a buffer filled in part: a download's). */
    public void write(byte[] bytes, int length) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Libc.writeFully(fd, arena.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, bytes).asSlice(0, length), dir.pathOf(name));
        }
    }

    /** Owner and group (-1: muster's own), then the mode: chown clears set-id bits, so the mode comes last. */
    public void setAttributes(int mode, int uid, int gid) throws IOException {
        if (uid != -1 || gid != -1) Libc.fchown(fd, uid, gid, dir.pathOf(name));
        Libc.fchmod(fd, mode, dir.pathOf(name));
    }

    /**
     * Syncs the content, renames the temp file over the target and syncs the directory: the rename is an entry in
     * the directory, and until that is on disk a power cut can bring the old file back after muster reported the
     * change as made. Fails, leaving the target as it was, when the temp file is no longer the one muster wrote
     * (someone renamed another file to its name).
     */
    public void commit() throws IOException {
        Libc.fsync(fd, dir.pathOf(name));
        Stat written = Libc.statx(fd, "", dir.pathOf(name));
        Stat there = dir.stat(name);
        if (there == null || !there.sameFile(written)) throw moved();
        try {
            Libc.renameat(dir.fd(), name, target, dir.pathOf(target));
        } catch (Libc.Errno e) {
            if (e.errno == ENOENT) throw moved();
            throw e;
        }
        synchronized (OPEN) {
            committed = true;
            OPEN.remove(this);
        }
        Libc.fsync(dir.fd(), dir.path());
    }

    private IOException moved() {
        return new IOException(dir.pathOf(name) + " was moved or replaced while muster wrote " + dir.pathOf(target)
                + "; " + dir.pathOf(target) + " was left as it was");
    }

    /** Appends to the file after {@link #commit()} (it keeps its descriptor), synced. */
    public void append(byte[] bytes) throws IOException {
        write(bytes);
        Libc.fsync(fd, dir.pathOf(target));
    }

    @Override
    public void close() throws IOException {
        synchronized (OPEN) { // not while removeAll uses the directory
            OPEN.remove(this);
            try {
                if (!committed) dir.unlink(name);
            } finally {
                Libc.close(fd);
            }
        }
    }
}
