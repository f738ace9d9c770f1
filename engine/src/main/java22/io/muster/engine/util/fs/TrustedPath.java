package io.muster.engine.util.fs;

import static io.muster.engine.util.fs.Libc.EEXIST;
import static io.muster.engine.util.fs.Libc.O_CLOEXEC;
import static io.muster.engine.util.fs.Libc.O_DIRECTORY;
import static io.muster.engine.util.fs.Libc.O_RDONLY;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Opens a directory by walking its path from "/" one component at a time, each opened without following
 * links, and checks every directory on the way as OpenSSH's StrictModes does: it must be owned by root
 * (or by muster's own user, or by the user who will own the managed file), and not writable by group or
 * others unless it has the sticky bit (as /tmp has). A symbolic link on the way is followed only when
 * root (or muster's user) owns it, not the file's owner: that user's link could lead root into a directory
 * the user cannot write (/etc/cron.d) and have it write a file the user then owns. The directories a link
 * leads to are checked the same way.
 */
public final class TrustedPath {
    private TrustedPath() {}

    private static final int MAX_LINKS = 40;

    /** The directory, trusted as above; {@code owner} is the uid the managed file will have (-1: root's). */
    public static Directory open(Path dir, int owner) throws IOException {
        return walk(dir, owner, false, true);
    }

    /**
     * The directory, its missing parts made 0700 (whatever the umask). An existing one is left as it is: a
     * state prefix the user named may be a shared directory ({@code --prefix /var/lib}).
     */
    public static Directory create(Path dir) throws IOException {
        return walk(dir, -1, true, true);
    }

    /**
     * A state directory of muster's own: as {@link #create}, and the directory itself, when it exists and
     * muster owns it, made 0700 too (an older version left state directories 0755).
     */
    public static Directory createPrivate(Path dir) throws IOException {
        Directory at = create(dir);
        try {
            Stat st = at.stat();
            if (st.uid() == Users.MUSTER && st.mode() != 0700) at.chmod(0700);
            return at;
        } catch (IOException | RuntimeException e) {
            at.close();
            throw e;
        }
    }

    /**
     * Opens a file to read (a {@code source:}), in a directory that may belong to anyone, following a link on
     * its way (the file's own name too) only when root owns it: a user's link could have root copy any file it
     * can read (/etc/shadow) to where that user reads it.
     */
    static OpenFile read(Path file) throws IOException {
        Path path = file.toAbsolutePath();
        for (int links = 0; ; links++) {
            if (path.getParent() == null) return new OpenFile(Libc.openat(Libc.AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, "/"), "/");
            try (Directory dir = walk(path.getParent(), -1, false, false)) {
                String name = path.getFileName().toString();
                Stat st = dir.stat(name);
                if (st == null) throw new NoSuchFileException(dir.pathOf(name));
                if (!st.link()) return dir.open(name, st);
                if (links == MAX_LINKS) throw new IOException(dir.pathOf(name) + ": too many levels of symbolic links");
                requireTrustedLink(dir, name, st);
                path = path.resolveSibling(Libc.readlinkat(dir.fd(), name, dir.pathOf(name)));
            }
        }
    }

    /**
     * Opens a directory to read (a {@code source:} tree), as {@link #read} opens a file: in a directory that may
     * belong to anyone, following a link on its way only when root owns it.
     */
    public static Directory readDirectory(Path dir) throws IOException {
        try (OpenFile opened = read(dir)) {
            if (!opened.stat().directory()) throw new IOException(dir + " is not a directory");
            String path = dir.toAbsolutePath().toString();
            return new Directory(Libc.openat(opened.fd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, path), path);
        }
    }

    private static Directory walk(Path dir, int owner, boolean create, boolean checkDirectories) throws IOException {
        if (!dir.isAbsolute()) throw new IllegalArgumentException("not an absolute path: " + dir);
        Deque<String> todo = new ArrayDeque<>();
        for (Path part : dir) todo.add(part.toString());
        Directory at = root(owner, checkDirectories);
        int links = 0;
        try {
            while (!todo.isEmpty()) {
                String name = todo.pop();
                if (name.equals(".")) continue;
                Stat st = at.stat(name);
                if (st == null && create) st = make(at, name);
                if (st == null) throw new NoSuchFileException(at.pathOf(name), null, "parent directory does not exist");
                if (st.link()) {
                    if (++links > MAX_LINKS) throw new IOException(at.pathOf(name) + ": too many levels of symbolic links");
                    requireTrustedLink(at, name, st);
                    String target = Libc.readlinkat(at.fd(), name, at.pathOf(name));
                    Path link = Path.of(target);
                    Deque<String> next = new ArrayDeque<>();
                    for (Path part : link) next.add(part.toString());
                    while (!next.isEmpty()) todo.push(next.removeLast());
                    if (link.isAbsolute()) {
                        at.close();
                        at = root(owner, checkDirectories);
                    }
                    continue;
                }
                Directory child = name.equals("..") ? parent(at) : at.directory(name);
                at.close();
                at = child;
                if (checkDirectories) check(at, owner);
            }
            return at;
        } catch (IOException | RuntimeException e) {
            at.close();
            throw e;
        }
    }

    private static Directory root(int owner, boolean checked) throws IOException {
        Directory root = new Directory(Libc.openat(Libc.AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, "/"), "/");
        try {
            if (checked) check(root, owner);
        } catch (IOException e) {
            root.close();
            throw e;
        }
        return root;
    }

    private static Directory parent(Directory at) throws IOException {
        String path = at.path();
        String up = path.lastIndexOf('/') <= 0 ? "/" : path.substring(0, path.lastIndexOf('/'));
        return new Directory(Libc.openat(at.fd(), "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, at.pathOf("..")), up);
    }

    private static Stat make(Directory at, String name) throws IOException {
        try {
            Libc.mkdirat(at.fd(), name, 0700, at.pathOf(name));
        } catch (Libc.Errno e) {
            if (e.errno != EEXIST) throw e; // made meanwhile: checked like any other
        }
        Stat made = at.stat(name);
        if (made != null && made.directory()) {
            try (OpenFile dir = at.open(name, made)) {
                if (made.uid() == Users.MUSTER) dir.chmod(0700);
            }
        }
        return made;
    }

    /** Whether a directory that is {@code st} now may hold what muster writes for {@code owner}, as the walk checks each. */
    static boolean trusted(Stat st, int owner) {
        return trusted(st.uid(), owner) && !writableByOthers(st);
    }

    private static boolean writableByOthers(Stat st) {
        return (st.mode() & 022) != 0 && (st.mode() & Directory.STICKY) == 0;
    }

    private static void check(Directory dir, int owner) throws IOException {
        Stat st = dir.stat();
        if (!trusted(st.uid(), owner)) {
            throw new IOException("bad ownership or modes for directory " + dir.path() + ": owned by " + Users.userName(st.uid())
                    + "; " + rule(owner));
        }
        if (writableByOthers(st)) {
            throw new IOException("bad ownership or modes for directory " + dir.path() + ": writable by "
                    + ((st.mode() & 002) != 0 ? "others" : "its group") + " (mode " + String.format(Locale.ROOT, "%04o", st.mode())
                    + ") and not sticky; muster does not write below a directory others can change");
        }
    }

    private static void requireTrustedLink(Directory dir, String name, Stat link) throws IOException {
        if (!trusted(link.uid(), -1)) {
            throw new IOException("bad ownership of symbolic link " + dir.pathOf(name) + ": owned by " + Users.userName(link.uid())
                    + "; muster follows only links owned by root");
        }
    }

    private static boolean trusted(int uid, int owner) {
        return Users.privileged(uid) || uid == owner && owner != -1;
    }

    private static String rule(int owner) {
        return "muster writes only below directories owned by root" + (owner > 0 ? " or " + Users.userName(owner) + " (the file's owner)" : "");
    }
}
