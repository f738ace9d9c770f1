package io.muster.engine.util.fs;

import static io.muster.engine.util.fs.Libc.AT_REMOVEDIR;
import static io.muster.engine.util.fs.Libc.EEXIST;
import static io.muster.engine.util.fs.Libc.EISDIR;
import static io.muster.engine.util.fs.Libc.ELOOP;
import static io.muster.engine.util.fs.Libc.ENOENT;
import static io.muster.engine.util.fs.Libc.ENOTDIR;
import static io.muster.engine.util.fs.Libc.ENOTEMPTY;
import static io.muster.engine.util.fs.Libc.O_CLOEXEC;
import static io.muster.engine.util.fs.Libc.O_DIRECTORY;
import static io.muster.engine.util.fs.Libc.O_NOCTTY;
import static io.muster.engine.util.fs.Libc.O_NOFOLLOW;
import static io.muster.engine.util.fs.Libc.O_NONBLOCK;
import static io.muster.engine.util.fs.Libc.O_RDONLY;

import java.io.IOException;
import java.util.List;

/**
 * An open directory: every operation names an entry relative to its descriptor and never follows a
 * symbolic link, so what was checked is what is changed. Get one from {@link TrustedPath} or, in a run,
 * {@link TrustedDirectories}.
 */
public final class Directory implements AutoCloseable {
    /** Attempts at deleting a tree that someone keeps changing, before muster gives up with an error. */
    private static final int DELETE_ATTEMPTS = 10;
    /** The deepest tree {@link #delete} removes (and a tree copy copies): each level holds a descriptor and a few stack frames. */
    public static final int MAX_TREE_DEPTH = 1000;
    static final int STICKY = 01000;

    private final int fd;
    private final String path;
    /** What {@link #close} does: closes the descriptor, or hands it back to the {@link TrustedDirectories} that keeps it open. */
    private final Runnable release;

    Directory(int fd, String path) {
        this(fd, path, () -> Libc.close(fd));
    }

    Directory(int fd, String path, Runnable release) {
        this.fd = fd;
        this.path = path;
        this.release = release;
    }

    /** The directory's path as muster reached it, for messages. */
    public String path() {
        return path;
    }

    /** The full path of an entry, for messages. */
    public String pathOf(String name) {
        return name.equals(".") ? path : path.endsWith("/") ? path + name : path + "/" + name;
    }

    /** What is at {@code name} (a link is not followed), or null when nothing is. */
    public Stat stat(String name) throws IOException {
        try {
            return Libc.statx(fd, name, pathOf(name));
        } catch (Libc.Errno e) {
            if (e.errno == ENOENT) return null;
            throw e;
        }
    }

    Stat stat() throws IOException {
        return Libc.statx(fd, "", path);
    }

    void chmod(int mode) throws IOException {
        Libc.fchmod(fd, mode, path);
    }

    /**
     * Opens the file or directory {@code checked} describes, failing when something else is at {@code name}
     * now. Non-blocking, so a FIFO put there cannot hang muster; never through a link.
     */
    public OpenFile open(String name, Stat checked) throws IOException {
        int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (checked.directory() ? O_DIRECTORY : 0);
        int opened;
        try {
            opened = Libc.openat(fd, name, flags, 0, pathOf(name));
        } catch (Libc.Errno e) {
            if (e.errno == ELOOP || e.errno == ENOTDIR || e.errno == ENOENT) throw changed(name);
            throw e;
        }
        OpenFile file = new OpenFile(opened, pathOf(name));
        if (!file.stat().sameFile(checked)) {
            file.close();
            throw changed(name);
        }
        return file;
    }

    private IOException changed(String name) {
        return new IOException(pathOf(name) + " was replaced while muster was changing it; nothing was changed, it is checked again next run");
    }

    /**
     * Refuses {@code entry} (what is at {@code name}) when this directory is sticky and writable by others (as
     * /tmp is) and the entry belongs to another user than root, muster's or {@code owner} (the uid the manifest
     * names, -1: none): that user may have made it as a trap and opened it for writing, so muster neither
     * writes into it, changes its owner nor keeps it (the kernel's fs.protected_regular rule). {@code ownerProperty}:
     * whether the resource has an {@code owner:} to suggest.
     */
    public void requireNotForeign(String name, Stat entry, int owner, boolean ownerProperty) throws IOException {
        if (Users.privileged(entry.uid()) || entry.uid() == owner) return;
        Stat self = stat();
        if ((self.mode() & STICKY) == 0 || (self.mode() & 022) == 0) return;
        String user = Users.userName(entry.uid());
        throw new IOException(pathOf(name) + " is owned by " + user + " in the sticky " + ((self.mode() & 002) != 0 ? "world" : "group")
                + "-writable directory " + path + "; muster does not write into a " + (entry.directory() ? "directory" : "file")
                + " another user owns there; " + (ownerProperty ? "set owner: " + user + " to manage it as theirs, or remove it" : "remove it"));
    }

    /** A subdirectory, not through a link. */
    Directory directory(String name) throws IOException {
        return new Directory(Libc.openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0, pathOf(name)), pathOf(name));
    }

    /**
     * Makes directory {@code name} (0700 until the caller sets its mode) and opens it, checking that the
     * directory opened is the one muster made.
     */
    public OpenFile makeDirectory(String name) throws IOException {
        Libc.mkdirat(fd, name, 0700, pathOf(name));
        Stat made = stat(name);
        if (made == null || !made.directory() || made.uid() != Users.MUSTER) throw changed(name);
        return open(name, made);
    }

    /**
     * A new temp file {@code .NAME.muster-<hex>} next to {@code name}, mode 0600, to take its place on
     * {@link TempFile#commit()}. Temp files of {@code name} that a killed run left are removed first.
     */
    public TempFile createTemp(String name) throws IOException {
        StaleTemps.remove(this, name);
        return TempFile.create(this, name);
    }

    int fd() {
        return fd;
    }

    /** The names in this directory, without {@code .} and {@code ..}. */
    public List<String> list() throws IOException {
        return Libc.list(fd, path);
    }

    /**
     * Opens the subdirectory {@code checked} describes, not through a link, failing when something else is at
     * {@code name} now.
     */
    public Directory subdirectory(String name, Stat checked) throws IOException {
        Directory sub;
        try {
            sub = directory(name);
        } catch (Libc.Errno e) {
            if (e.errno == ELOOP || e.errno == ENOTDIR || e.errno == ENOENT) throw changed(name);
            throw e;
        }
        if (!sub.stat().sameFile(checked)) {
            sub.close();
            throw changed(name);
        }
        return sub;
    }

    /**
     * Moves entry {@code name} to {@code toName} in directory {@code to} (on the same file system), replacing what
     * is there (not a directory unless this is an empty one), then syncs both directories. Links are moved, never followed.
     */
    public void moveTo(String name, Directory to, String toName) throws IOException {
        Libc.renameat(fd, name, to.fd, toName, to.pathOf(toName));
        Libc.fsync(to.fd, to.path);
        Libc.fsync(fd, path);
    }

    /**
     * Creates a new regular file {@code name} (exclusively, never through a link) to write, mode 0600 until the
     * caller sets it: for a directory only muster can enter yet (one being filled aside, as an archive is
     * extracted), where a temp file and rename per file would buy nothing.
     */
    public NewFile createFile(String name) throws IOException {
        return new NewFile(Libc.openat(fd, name, Libc.O_WRONLY | Libc.O_CREAT | Libc.O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600, pathOf(name)), pathOf(name));
    }

    /**
     * Makes a new directory {@code .NAME.muster-<hex>} (0700, muster's: no one else can enter it) to fill aside
     * before it takes {@code name}'s place; returns its name. Ones a killed run left (directories muster owns,
     * named so) are deleted first, never through a link.
     */
    public String makeTempDirectory(String name) throws IOException {
        String prefix = "." + name + TempFile.MARK;
        for (String entry : list()) {
            if (!entry.startsWith(prefix) || !entry.substring(prefix.length()).matches("[0-9a-f]{16}")) continue;
            Stat st = stat(entry);
            if (st != null && st.directory() && st.uid() == Users.MUSTER) delete(entry);
        }
        while (true) {
            String temp = TempFile.tempName(name);
            try {
                Libc.mkdirat(fd, temp, 0700, pathOf(temp));
                return temp;
            } catch (Libc.Errno e) {
                if (e.errno != EEXIST) throw e;
            }
        }
    }

    /** Makes {@code name} a symbolic link to {@code target}; something there already is an error. */
    public void makeLink(String name, String target) throws IOException {
        Libc.symlinkat(target, fd, name, pathOf(name));
    }

    /** Where the symbolic link {@code name} points. */
    public String readLink(String name) throws IOException {
        return Libc.readlinkat(fd, name, pathOf(name));
    }

    /**
     * Makes {@code name} a symbolic link to {@code target} in one step: the link is made under a temp name
     * ({@code .NAME.muster-<hex>}) and renamed over what is there (not a directory), then the directory synced.
     * (A run killed in between leaves that link; stale temps that are links are not removed, see {@link StaleTemps}.)
     */
    public void replaceWithLink(String name, String target) throws IOException {
        StaleTemps.remove(this, name);
        while (true) {
            String temp = TempFile.tempName(name);
            try {
                Libc.symlinkat(target, fd, temp, pathOf(temp));
            } catch (Libc.Errno e) {
                if (e.errno == EEXIST) continue;
                throw e;
            }
            try {
                Libc.renameat(fd, temp, name, pathOf(name));
            } catch (IOException e) {
                unlink(temp);
                throw e;
            }
            Libc.fsync(fd, path);
            return;
        }
    }

    /** Removes a file, link or special file (not a directory); nothing there is fine. */
    public void unlink(String name) throws IOException {
        try {
            Libc.unlinkat(fd, name, 0, pathOf(name));
        } catch (Libc.Errno e) {
            if (e.errno != ENOENT) throw e;
        }
    }

    /** Removes an empty directory; nothing there is fine. */
    public void removeDirectory(String name) throws IOException {
        try {
            Libc.unlinkat(fd, name, AT_REMOVEDIR, pathOf(name));
        } catch (Libc.Errno e) {
            if (e.errno != ENOENT) throw e;
        }
    }

    /**
     * Deletes whatever is at {@code name}, a directory with all it holds, walking open directory
     * descriptors: a link anywhere in the tree is removed, never followed. A tree that keeps changing
     * underneath is retried a few times, then an error. Deeper than {@link #MAX_TREE_DEPTH} is an error too
     * (what was removed before muster got there stays removed).
     */
    public void delete(String name) throws IOException {
        delete(name, 1);
    }

    private void delete(String name, int depth) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Libc.unlinkat(fd, name, 0, pathOf(name));
                return;
            } catch (Libc.Errno e) {
                if (e.errno == ENOENT) return;
                if (e.errno != EISDIR) throw e;
            }
            if (depth > MAX_TREE_DEPTH) {
                throw new IOException("cannot remove " + pathOf(name) + ": the tree is more than " + MAX_TREE_DEPTH
                        + " directories deep, the most muster removes");
            }
            try (Directory tree = directory(name)) {
                for (String entry : tree.list()) tree.delete(entry, depth + 1);
                Libc.unlinkat(fd, name, AT_REMOVEDIR, pathOf(name));
                return;
            } catch (Libc.Errno e) {
                boolean raced = e.errno == ELOOP || e.errno == ENOTDIR || e.errno == ENOENT || e.errno == ENOTEMPTY || e.errno == EEXIST;
                if (!raced) throw e;
                if (attempt == DELETE_ATTEMPTS) {
                    throw new IOException(pathOf(name) + " kept changing while muster deleted it (" + e.getMessage() + ")");
                }
            }
        }
    }

    @Override
    public void close() {
        release.run();
    }
}
