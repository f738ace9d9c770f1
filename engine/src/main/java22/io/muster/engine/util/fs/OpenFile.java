package io.muster.engine.util.fs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.security.MessageDigest;

/** An open file or directory: read it, or change its mode and owner, through its descriptor. */
public final class OpenFile implements AutoCloseable {
    /** The most muster reads into memory from one file (a source, a document, a file to compare). */
    public static final long MAX_READ = 64L << 20;
    /**
     * The most muster hashes of one file (a {@code sha256} of content a resource does not set): a sparse file
     * can claim terabytes, which would keep a run hashing for hours.
     */
    public static final long MAX_DIGEST = 4L << 30;

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
     * Opens a regular file to read (a {@code source:} the manifest names), following only links root owns
     * (see {@link TrustedPath#read}). A FIFO, a device or a directory is an error, never a hang.
     */
    public static OpenFile regular(Path file) throws IOException {
        String path = file.toString();
        OpenFile opened = TrustedPath.read(file);
        if (!opened.stat.regular()) {
            opened.close();
            throw new IOException(path + " is a " + (opened.stat.directory() ? "directory" : "special file") + ", not a regular file");
        }
        return opened;
    }

    /**
     * Opens one of muster's state files to read, as {@link #regular}; made 0600 on its descriptor when muster
     * owns it, as muster writes them: an older version left some 0644.
     */
    public static OpenFile state(Path file) throws IOException {
        OpenFile opened = regular(file);
        try {
            if (opened.stat.uid() == Users.MUSTER && opened.stat.mode() != 0600) opened.chmod(0600);
            return opened;
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    public Stat stat() {
        return stat;
    }

    int fd() {
        return fd;
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

    /** Feeds the whole content of a regular file, of at most {@link #MAX_DIGEST} bytes, to {@code digest}, streamed. */
    public void digest(MessageDigest digest) throws IOException {
        requireRegular();
        if (stat.size() > MAX_DIGEST) throw tooLargeToHash(stat.size());
        long[] read = {0};
        stream(chunk -> { // it may grow while it is read
            read[0] += chunk.length;
            if (read[0] > MAX_DIGEST) throw tooLargeToHash(read[0]);
            digest.update(chunk);
        });
    }

    /** Copies the whole content of a regular file to {@code out}, streamed; more than {@code max} bytes is an error. */
    public void transferTo(java.io.OutputStream out, long max) throws IOException {
        requireRegular();
        long[] read = {0};
        stream(chunk -> { // it may grow while it is read
            read[0] += chunk.length;
            if (read[0] > max) throw new IOException(path + " is more than " + max + " bytes, the most muster copies");
            out.write(chunk);
        });
    }

    private IOException tooLargeToHash(long size) {
        return new IOException(path + " is " + size + " bytes; muster hashes files of up to " + (MAX_DIGEST >> 30) + " GiB");
    }

    private interface Chunks {
        void accept(byte[] chunk) throws IOException;
    }

    /** Reads in chunks the size of the file as statx saw it (one that grew since takes more chunks), of 4 to 64 KiB. */
    private void stream(Chunks chunks) throws IOException {
        try (Scratch scratch = Scratch.take()) {
            MemorySegment buffer = scratch.allocate(Math.clamp(stat.size() + 1, 4096, 1 << 16));
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
