package io.muster.engine.util.fs;

import static io.muster.engine.util.fs.Libc.O_CLOEXEC;
import static io.muster.engine.util.fs.Libc.O_NOCTTY;
import static io.muster.engine.util.fs.Libc.O_NONBLOCK;
import static io.muster.engine.util.fs.Libc.O_RDONLY;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.security.MessageDigest;

/** An open file or directory: read it, or change its mode and owner, through its descriptor. */
public final class OpenFile implements AutoCloseable {
    /** The most muster reads into memory from one file (a source, a document, a file to compare). */
    public static final long MAX_READ = 64L << 20;

    private final int fd;
    private final String path;
    private final Stat stat;

    OpenFile(int fd, String path) throws IOException {
        this.fd = fd;
        this.path = path;
        try {
            this.stat = Libc.statx(fd, "", path);
        } catch (IOException e) {
            Libc.close(fd);
            throw e;
        }
    }

    /**
     * Opens a regular file to read, following links (a {@code source:} the manifest names). A FIFO, a
     * device or a directory is an error, never a hang.
     */
    public static OpenFile regular(Path file) throws IOException {
        String path = file.toString();
        OpenFile opened = new OpenFile(Libc.openat(Libc.AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0, path), path);
        if (!opened.stat.regular()) {
            opened.close();
            throw new IOException(path + " is a " + (opened.stat.directory() ? "directory" : "special file") + ", not a regular file");
        }
        return opened;
    }

    public Stat stat() {
        return stat;
    }

    /** The whole content of a regular file, of at most {@link #MAX_READ} bytes. */
    public byte[] readAll() throws IOException {
        requireRegular();
        if (stat.size() > MAX_READ) throw tooLarge(stat.size());
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) stat.size());
        stream(chunk -> {
            if (out.size() + chunk.length > MAX_READ) throw tooLarge(out.size() + chunk.length);
            out.writeBytes(chunk);
        });
        return out.toByteArray();
    }

    /** Feeds the whole content of a regular file, of any size, to {@code digest}. */
    public void digest(MessageDigest digest) throws IOException {
        requireRegular();
        stream(digest::update);
    }

    private interface Chunks {
        void accept(byte[] chunk) throws IOException;
    }

    private void stream(Chunks chunks) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(1 << 16);
            for (int n; (n = Libc.read(fd, buffer, path)) > 0; ) {
                chunks.accept(buffer.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    private void requireRegular() throws IOException {
        if (!stat.regular()) throw new IOException(path + " is not a regular file");
    }

    private IOException tooLarge(long size) {
        return new IOException(path + " is " + size + " bytes; muster reads files of up to " + (MAX_READ >> 20) + " MiB into memory");
    }

    public void chmod(int mode) throws IOException {
        Libc.fchmod(fd, mode, path);
    }

    /** Sets owner and group; -1 leaves one as it is. */
    public void chown(int uid, int gid) throws IOException {
        Libc.fchown(fd, uid, gid, path);
    }

    @Override
    public void close() {
        Libc.close(fd);
    }
}
