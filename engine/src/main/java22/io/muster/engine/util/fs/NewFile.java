package io.muster.engine.util.fs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;

/** A file muster made and writes (see {@link Directory#createFile}); synced when closed. */
public final class NewFile implements AutoCloseable {
    private final int fd;
    private final String path;

    NewFile(int fd, String path) {
        this.fd = fd;
        this.path = path;
    }

    public void write(byte[] bytes, int length) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Libc.writeFully(fd, arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes).asSlice(0, length), path);
        }
    }

    /** Owner and group (-1: muster's own), then the mode: chown clears set-id bits, so the mode comes last. */
    public void setAttributes(int mode, int uid, int gid) throws IOException {
        if (uid != -1 || gid != -1) Libc.fchown(fd, uid, gid, path);
        Libc.fchmod(fd, mode, path);
    }

    /** Syncs and closes: what was written is on disk before the file is moved into place. */
    @Override
    public void close() throws IOException {
        try {
            Libc.fsync(fd, path);
        } finally {
            Libc.close(fd);
        }
    }
}
