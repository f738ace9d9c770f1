package io.muster.engine.resource.pkg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The package kind's session for one run: the dpkg database read once for every package resource of the
 * run, and read again only when dpkg's status file changed (a transaction, an admin's apt-get), so that fifty
 * packages cost one {@code dpkg-query}. Transactions of the run take turns, rather than queue on dpkg's lock.
 */
final class PackageSession implements AutoCloseable {
    /** dpkg's database of what is installed: replaced (renamed over) at the end of every dpkg run. */
    static final Path STATUS = Path.of("/var/lib/dpkg/status");

    private final Apt apt = new Apt();
    private final ReentrantLock transactions = new ReentrantLock();
    private Installed installed;
    private List<Object> readAt;

    PackageSession() throws IOException {
        if (!Files.isRegularFile(STATUS)) {
            throw new NoSuchFileException(STATUS.toString(), null,
                    "no dpkg database: the package kind manages Debian packages, through dpkg and apt");
        }
    }

    Apt apt() {
        return apt;
    }

    /** The database as it is now: read again when the status file changed since the last read. */
    synchronized Installed installed() throws IOException, InterruptedException {
        List<Object> now = stamp(); // before the read: a change during it makes the next call read again
        if (installed == null || !now.equals(readAt)) {
            installed = apt.query();
            readAt = now;
        }
        return installed;
    }

    /** Runs {@code transactions} one after the other, after any other of this run; the database after them. */
    Installed transact(List<AptTransaction> work) throws IOException, InterruptedException {
        transactions.lockInterruptibly();
        try {
            for (AptTransaction transaction : work) apt.run(transaction);
        } finally {
            synchronized (this) {
                installed = null; // what failed may have changed something too
            }
            transactions.unlock();
        }
        return installed();
    }

    private static List<Object> stamp() throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(STATUS, BasicFileAttributes.class);
        return List.of(String.valueOf(attributes.fileKey()), attributes.lastModifiedTime(), attributes.size());
    }

    @Override
    public void close() {
        // holds no descriptors: the database is read by a process that has ended
    }
}
