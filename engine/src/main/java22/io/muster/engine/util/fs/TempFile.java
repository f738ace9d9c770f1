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
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A file being written to take another's place: created exclusively, without following links, mode 0600
 * (no one else can open it while its content is written); the final owner and mode are set on its
 * descriptor, then it is synced and renamed over the target. Closed before commit, it is removed.
 */
public final class TempFile implements AutoCloseable {
    static final String MARK = ".muster-";

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

    static TempFile create(Directory dir, String target) throws IOException {
        while (true) {
            String name = "." + target + MARK + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
            try {
                return new TempFile(dir, target, name, Libc.openat(dir.fd(), name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600, dir.pathOf(name)));
            } catch (Libc.Errno e) {
                if (e.errno == ENOENT) throw new IOException(dir.path() + " was removed while muster wrote " + dir.pathOf(target) + " in it");
                if (e.errno != EEXIST) throw e;
            }
        }
    }

    public void write(byte[] bytes) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Libc.writeFully(fd, arena.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, bytes), dir.pathOf(name));
        }
    }

    /** Owner and group (-1: muster's own), then the mode: chown clears set-id bits, so the mode comes last. */
    public void setAttributes(int mode, int uid, int gid) throws IOException {
        if (uid != -1 || gid != -1) Libc.fchown(fd, uid, gid, dir.pathOf(name));
        Libc.fchmod(fd, mode, dir.pathOf(name));
    }

    /**
     * Syncs the content and renames the temp file over the target. Fails, leaving the target as it was,
     * when the temp file is no longer the one muster wrote (someone renamed another file to its name).
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
        committed = true;
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
        try {
            if (!committed) dir.unlink(name);
        } finally {
            Libc.close(fd);
        }
    }
}
