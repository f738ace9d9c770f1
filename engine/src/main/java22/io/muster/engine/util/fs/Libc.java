package io.muster.engine.util.fs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The libc calls muster makes on descriptors, through the foreign function API: every change to a file
 * happens on a descriptor (or relative to a directory descriptor) so that no path is resolved twice. A
 * failed call throws an {@link Errno} with strerror's text and the path it was about. Linux only; the
 * flags below are those of x86_64 and aarch64 (they differ in O_DIRECTORY and O_NOFOLLOW).
 */
final class Libc {
    private Libc() {}

    static final int O_RDONLY = 0;
    static final int O_WRONLY = 01;
    static final int O_CREAT = 0100;
    static final int O_EXCL = 0200;
    static final int O_NOCTTY = 0400;
    static final int O_APPEND = 02000;
    static final int O_NONBLOCK = 04000;
    static final int O_CLOEXEC = 02000000;
    static final int O_DIRECTORY;
    static final int O_NOFOLLOW;

    static final int AT_FDCWD = -100;
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    static final int AT_REMOVEDIR = 0x200;
    static final int AT_EMPTY_PATH = 0x1000;

    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EEXIST = 17;
    static final int ENOTDIR = 20;
    static final int EISDIR = 21;
    static final int ENOTEMPTY = 39;
    static final int ELOOP = 40;

    static {
        switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> { O_DIRECTORY = 0200000; O_NOFOLLOW = 0400000; }
            case "aarch64" -> { O_DIRECTORY = 040000; O_NOFOLLOW = 0100000; }
            default -> throw new ExceptionInInitializerError("muster writes files on Linux x86_64 and aarch64 only, not "
                    + System.getProperty("os.arch"));
        }
    }

    /** A failed call: its errno, strerror's text and the path. */
    static final class Errno extends IOException {
        final int errno;

        Errno(int errno, String path) {
            super(path + ": " + strerror(errno));
            this.errno = errno;
        }
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURED = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURED.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /*
     * Every function is called through one shape: six 64-bit integer arguments (pointers as addresses), a 64-bit
     * result, errno captured. The linker spins classes for each shape of call it meets (some 35 ms of a one-shot
     * apply went to making the handles of eight shapes, even with the start-up cache, which cannot keep them); with one
     * shape it spins them once. This holds for the ABIs muster runs on (x86_64 SysV and AArch64): integer arguments
     * travel in registers, a function reads only those it declares, and one returning an int leaves it in the low 32
     * bits of the result, which each caller narrows back to int. Arguments are at most six; pointers passed as
     * addresses point into memory the caller keeps alive for the call (a Scratch, or the caller's arena).
     */
    private static final FunctionDescriptor SHAPE = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG);

    // the handles are made by group, when a group is first called (a holder class each, so they stay constants the JIT folds)

    /** What checking a file calls. */
    private static final class Reading {
        static final MethodHandle OPENAT = call("openat");
        static final MethodHandle CLOSE = call("close");
        static final MethodHandle READ = call("read");
        static final MethodHandle STATX = call("statx");
    }

    /** What changing a file calls. */
    private static final class Writing {
        static final MethodHandle WRITE = call("write");
        static final MethodHandle FCHMOD = call("fchmod");
        static final MethodHandle FCHOWN = call("fchown");
        static final MethodHandle FSYNC = call("fsync");
        static final MethodHandle RENAMEAT = call("renameat");
        static final MethodHandle UNLINKAT = call("unlinkat");
        static final MethodHandle MKDIRAT = call("mkdirat");
        static final MethodHandle SYMLINKAT = call("symlinkat");
    }

    /** What reading links and directories calls. */
    private static final class Listing {
        static final MethodHandle READLINKAT = call("readlinkat");
        static final MethodHandle GETDENTS64 = call("getdents64");
    }

    /** Who runs, who is who, and what the output is. */
    private static final class Identity {
        static final MethodHandle GETEUID = call("geteuid");
        static final MethodHandle ISATTY = call("isatty");
        static final MethodHandle GETPWNAM = call("getpwnam");
        static final MethodHandle GETPWUID = call("getpwuid");
        static final MethodHandle GETGRNAM = call("getgrnam");
        static final MethodHandle GETGRGID = call("getgrgid");
    }

    /** What an error message calls. */
    private static final class Errors {
        static final MethodHandle STRERROR = call("strerror");
    }

    private static MethodHandle call(String name) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), SHAPE, Linker.Option.captureCallState("errno"));
    }

    static String strerror(int errno) {
        try (Scratch scratch = Scratch.take()) {
            long text = (long) Errors.STRERROR.invokeExact(scratch.allocate(CAPTURED), (long) errno, 0L, 0L, 0L, 0L, 0L);
            return MemorySegment.ofAddress(text).reinterpret(1024).getString(0);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    private static int errno(MemorySegment captured) {
        return (int) ERRNO.get(captured, 0L);
    }

    /** Runs a call that returns -1 on failure (retrying EINTR), turning errno into an {@link Errno} about {@code path}. */
    private static long check(SegmentAllocator arena, String path, Call call) throws IOException {
        MemorySegment captured = arena.allocate(CAPTURED);
        while (true) {
            long result;
            try {
                result = call.invoke(captured);
            } catch (IOException | RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new AssertionError(e);
            }
            if (result >= 0) return result;
            if (errno(captured) != EINTR) throw new Errno(errno(captured), path);
        }
    }

    @FunctionalInterface
    private interface Call {
        long invoke(MemorySegment captured) throws Throwable;
    }

    static int openat(int dirfd, String name, int flags, int mode, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            MemorySegment cName = arena.allocateFrom(name);
            return (int) check(arena, path, c -> (int) (long) Reading.OPENAT.invokeExact(c, (long) dirfd, cName.address(), (long) flags, (long) mode, 0L, 0L));
        }
    }

    static void close(int fd) {
        try (Scratch arena = Scratch.take()) {
            MemorySegment captured = arena.allocate(CAPTURED);
            long ignored = (long) Reading.CLOSE.invokeExact(captured, (long) fd, 0L, 0L, 0L, 0L, 0L); // Linux frees the descriptor even when close fails
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** Reads up to {@code buffer.byteSize()} bytes; 0 at the end of the file. */
    static int read(int fd, MemorySegment buffer, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            return (int) check(arena, path, c -> (long) Reading.READ.invokeExact(c, (long) fd, buffer.address(), buffer.byteSize(), 0L, 0L, 0L));
        }
    }

    static void writeFully(int fd, MemorySegment bytes, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            long done = 0;
            while (done < bytes.byteSize()) {
                MemorySegment rest = bytes.asSlice(done);
                done += check(arena, path, c -> (long) Writing.WRITE.invokeExact(c, (long) fd, rest.address(), rest.byteSize(), 0L, 0L, 0L));
            }
        }
    }

    static void fchmod(int fd, int mode, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            check(arena, path, c -> (int) (long) Writing.FCHMOD.invokeExact(c, (long) fd, (long) mode, 0L, 0L, 0L, 0L));
        }
    }

    static void fchown(int fd, int uid, int gid, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            check(arena, path, c -> (int) (long) Writing.FCHOWN.invokeExact(c, (long) fd, (long) uid, (long) gid, 0L, 0L, 0L));
        }
    }

    static void fsync(int fd, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            check(arena, path, c -> (int) (long) Writing.FSYNC.invokeExact(c, (long) fd, 0L, 0L, 0L, 0L, 0L));
        }
    }

    static void renameat(int dirfd, String from, String to, String path) throws IOException {
        renameat(dirfd, from, dirfd, to, path);
    }

    static void renameat(int fromDirfd, String from, int toDirfd, String to, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            MemorySegment cFrom = arena.allocateFrom(from);
            MemorySegment cTo = arena.allocateFrom(to);
            check(arena, path, c -> (int) (long) Writing.RENAMEAT.invokeExact(c, (long) fromDirfd, cFrom.address(), (long) toDirfd, cTo.address(), 0L, 0L));
        }
    }

    static void unlinkat(int dirfd, String name, int flags, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            MemorySegment cName = arena.allocateFrom(name);
            check(arena, path, c -> (int) (long) Writing.UNLINKAT.invokeExact(c, (long) dirfd, cName.address(), (long) flags, 0L, 0L, 0L));
        }
    }

    static void mkdirat(int dirfd, String name, int mode, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            MemorySegment cName = arena.allocateFrom(name);
            check(arena, path, c -> (int) (long) Writing.MKDIRAT.invokeExact(c, (long) dirfd, cName.address(), (long) mode, 0L, 0L, 0L));
        }
    }

    /** statx of {@code name} in {@code dirfd} without following a link, or of {@code dirfd} itself when name is empty. */
    static Stat statx(int dirfd, String name, String path) throws IOException {
        return statx(dirfd, name, AT_SYMLINK_NOFOLLOW | (name.isEmpty() ? AT_EMPTY_PATH : 0), path);
    }

    /** statx of an absolute path, following links on the way and at its end. */
    static Stat statxFollowing(String absolute) throws IOException {
        return statx(AT_FDCWD, absolute, 0, absolute);
    }

    private static Stat statx(int dirfd, String name, int flags, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            MemorySegment cName = arena.allocateFrom(name);
            MemorySegment buffer = arena.allocate(Stat.STATX_SIZE, 8);
            check(arena, path, c -> (int) (long) Reading.STATX.invokeExact(c, (long) dirfd, cName.address(), (long) flags, (long) Stat.STATX_BASIC_STATS, buffer.address(), 0L));
            return Stat.of(buffer);
        }
    }

    static void symlinkat(String target, int dirfd, String name, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            MemorySegment cTarget = arena.allocateFrom(target);
            MemorySegment cName = arena.allocateFrom(name);
            check(arena, path, c -> (int) (long) Writing.SYMLINKAT.invokeExact(c, cTarget.address(), (long) dirfd, cName.address(), 0L, 0L, 0L));
        }
    }

    static String readlinkat(int dirfd, String name, String path) throws IOException {
        try (Scratch arena = Scratch.take()) {
            MemorySegment cName = arena.allocateFrom(name);
            MemorySegment buffer = arena.allocate(4097);
            long n = check(arena, path, c -> (long) Listing.READLINKAT.invokeExact(c, (long) dirfd, cName.address(), buffer.address(), 4096L, 0L, 0L));
            return new String(buffer.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** The names in a directory (without . and ..), read through a descriptor of its own (its offset is not shared). */
    static java.util.List<String> list(int dirfd, String path) throws IOException {
        int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, path);
        try (Scratch arena = Scratch.take()) {
            MemorySegment buffer = arena.allocate(32768, 8);
            java.util.List<String> names = new java.util.ArrayList<>();
            while (true) {
                long n = check(arena, path, c -> (long) Listing.GETDENTS64.invokeExact(c, (long) fd, buffer.address(), buffer.byteSize(), 0L, 0L, 0L));
                if (n == 0) return names;
                // struct linux_dirent64, the same on every architecture: d_ino 8, d_off 8, d_reclen 2, d_type 1, d_name
                for (long at = 0; at < n; at += Short.toUnsignedInt(buffer.get(java.lang.foreign.ValueLayout.JAVA_SHORT, at + 16))) {
                    String name = buffer.getString(at + 19);
                    if (!name.equals(".") && !name.equals("..")) names.add(name);
                }
            }
        } finally {
            close(fd);
        }
    }

    /**
     * The id of a user or group by name (struct passwd and struct group on 64-bit Linux: the name and
     * password pointers, then the id), or -1. The entries are static buffers: one lookup at a time.
     */
    static synchronized int id(String name, boolean group) {
        try (Scratch scratch = Scratch.take()) {
            long cName = scratch.allocateFrom(name).address();
            MemorySegment captured = scratch.allocate(CAPTURED);
            long entry = group ? (long) Identity.GETGRNAM.invokeExact(captured, cName, 0L, 0L, 0L, 0L, 0L)
                    : (long) Identity.GETPWNAM.invokeExact(captured, cName, 0L, 0L, 0L, 0L, 0L);
            return entry == 0 ? -1 : MemorySegment.ofAddress(entry).reinterpret(20).get(JAVA_INT, 16);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** The name of a user or group id, or null. */
    static synchronized String name(int id, boolean group) {
        try (Scratch scratch = Scratch.take()) {
            MemorySegment captured = scratch.allocate(CAPTURED);
            long entry = group ? (long) Identity.GETGRGID.invokeExact(captured, (long) id, 0L, 0L, 0L, 0L, 0L)
                    : (long) Identity.GETPWUID.invokeExact(captured, (long) id, 0L, 0L, 0L, 0L, 0L);
            return entry == 0 ? null : MemorySegment.ofAddress(entry).reinterpret(8).get(ADDRESS, 0).reinterpret(4096).getString(0);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    static int geteuid() {
        try (Scratch scratch = Scratch.take()) {
            return (int) (long) Identity.GETEUID.invokeExact(scratch.allocate(CAPTURED), 0L, 0L, 0L, 0L, 0L, 0L);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** Whether the descriptor is a terminal (0: not, or not open). */
    static boolean isatty(int fd) {
        try (Scratch scratch = Scratch.take()) {
            return (int) (long) Identity.ISATTY.invokeExact(scratch.allocate(CAPTURED), (long) fd, 0L, 0L, 0L, 0L, 0L) == 1;
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }
}
