package io.muster.engine.run;

import io.muster.engine.util.fs.TrustedPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps two runs that change things from working on one state prefix at once (two applies would both run a
 * {@code creates:}-guarded command): an exclusive lock on {@code <prefix>/lock}, taken through
 * {@link FileChannel#tryLock} (a POSIX {@code fcntl} lock on Linux), which the kernel drops when its holder
 * exits or is killed, so a stale lock never blocks. The file is opened without following a symbolic link, created 0600, and holds the holder's
 * pid, for the message of a run that finds the lock taken. It is never deleted: deleting a lock file lets
 * two runs lock two different files.
 */
public final class StateLock implements AutoCloseable {
    public static final String FILE = "lock";

    /**
     * The lock files this JVM holds: closing any channel of a locked file drops the process's lock on it, so
     * a second attempt from this JVM must not even open it.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final FileChannel channel;

    /** Another run holds the lock. */
    public static final class HeldException extends Exception {
        private final Path file;
        private final String holder;

        HeldException(Path file, String holder) {
            super("another run (pid " + holder + ") holds the state lock " + file);
            this.file = file;
            this.holder = holder;
        }

        public Path file() {
            return file;
        }

        /** The holder's pid as its lock file says, or {@code unknown} when it has not written it yet. */
        public String holder() {
            return holder;
        }
    }

    private StateLock(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /**
     * Takes the lock of {@code prefix} (created 0700 when missing, and trusted as {@link TrustedPath} says) without waiting.
     *
     * @throws HeldException when another run holds it
     * @throws IOException when the lock file cannot be created or opened, or is no regular file
     */
    public static StateLock tryAcquire(Path prefix) throws IOException, HeldException {
        // trusted like every state directory: a prefix a user can change could lead the lock to truncate any file named lock
        TrustedPath.create(prefix).close();
        Path file = prefix.toRealPath().resolve(FILE);
        if (!HELD.add(file)) throw new HeldException(file, Long.toString(ProcessHandle.current().pid()));
        FileChannel channel = null;
        try {
            channel = open(file);
            if (!Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()) {
                throw new IOException(file + " is not a regular file");
            }
            // an older version left it 0644; the prefix is trusted, so the name still leads to the file opened
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            FileLock lock = channel.tryLock();
            if (lock == null) throw new HeldException(file, holder(channel));
            byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
            channel.truncate(0).write(ByteBuffer.wrap(pid), 0);
            channel.force(false);
            return new StateLock(file, channel);
        } catch (IOException | HeldException | RuntimeException e) {
            if (channel != null) channel.close();
            HELD.remove(file);
            throw e;
        }
    }

    /** Opens (or creates, 0600) the lock file, never through a symbolic link. */
    private static FileChannel open(Path file) throws IOException {
        try {
            return FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (IOException e) {
            if (Files.isSymbolicLink(file)) throw new IOException(file + " is a symbolic link, which muster does not follow", e);
            throw e;
        }
    }

    /** Where the lock is. */
    public Path file() {
        return file;
    }

    /** Releases it; the file stays, for the next run to lock. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) { // cannot happen to a local file; and the lock goes with the process anyway
            throw new UncheckedIOException("cannot release the lock " + file, e);
        } finally {
            HELD.remove(file);
        }
    }

    /** The pid the holder wrote, or {@code unknown} (it locked the file and has not written it yet). */
    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer content = ByteBuffer.allocate(32);
        channel.read(content, 0);
        String pid = new String(content.array(), 0, content.position(), StandardCharsets.US_ASCII).trim();
        return pid.matches("[0-9]{1,10}") ? pid : "unknown";
    }
}
