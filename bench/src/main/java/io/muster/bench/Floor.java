package io.muster.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The floor for bench/files.sh: the least a file-convergence tool written in Java has to do to converge
 * {@code N} files of one content and mode in one directory, with no manifest, no graph, no report.
 *
 * <pre>
 *   java -cp muster-bench.jar io.muster.bench.Floor DIR N CONTENT MODE      (MODE in octal, e.g. 0644)
 * </pre>
 *
 * The files are {@code DIR/f00001} .. {@code DIR/fNNNNN} (five digits at least, as bench/files.sh
 * generates them). For each file: one stat (lstat: type, mode, size); when the size matches, read the file
 * and compare the bytes; when it is missing or differs, replace it the way muster does (a temp file in the
 * same directory, explicit chmod on the temp file, write, fsync, atomic rename over the target); when only
 * the mode differs, chmod it. The directory is created (mode 0755) when it is missing.
 *
 * <p>Sequential, on purpose. Per file the work is a few microseconds of system calls; on the 2-core
 * machines this bench targets, a second thread saves at best half of the per-file loop (tens of
 * milliseconds at N=10000 on tmpfs) and costs a thread start and a split of the work, and its benefit
 * depends on the core count, so the floor would move from machine to machine. A sequential loop is the
 * simplest honest statement of the work that has to happen. muster checks in parallel (one worker per
 * core), so on more than one core muster can in principle beat this floor on the loop itself; the ratio
 * then shows how much of muster's time is fixed cost (JVM start, manifest parsing, graph, report).
 *
 * <p>Prints nothing except errors. Exit code 0 when every file converged, 1 on any error, 64 on bad usage.
 */
public final class Floor {
    private Floor() {}

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: Floor DIR N CONTENT MODE");
            System.exit(64);
        }
        Path dir = Path.of(args[0]);
        int n;
        int mode;
        try {
            n = Integer.parseInt(args[1]);
            mode = Integer.parseInt(args[3], 8);
            if (n < 0 || (mode & ~0777) != 0) throw new NumberFormatException("N >= 0, MODE within 0777");
        } catch (NumberFormatException e) {
            System.err.println("Floor: bad number: " + e.getMessage());
            System.exit(64);
            return;
        }
        byte[] content = args[2].getBytes(StandardCharsets.UTF_8);
        Set<PosixFilePermission> perms = permissions(mode);
        int failures = 0;
        try {
            ensureDirectory(dir);
        } catch (IOException e) {
            System.err.println("Floor: " + dir + ": " + e);
            System.exit(1);
        }
        int width = Math.max(5, Integer.toString(n).length());
        for (int i = 1; i <= n; i++) {
            Path file = dir.resolve(name(i, width));
            try {
                converge(file, content, mode, perms);
            } catch (IOException e) {
                System.err.println("Floor: " + file + ": " + e);
                failures++;
            }
        }
        System.exit(failures == 0 ? 0 : 1);
    }

    private static void ensureDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return;
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("exists and is not a directory");
        }
        Files.setPosixFilePermissions(dir, permissions(0755));
    }

    private static void converge(Path file, byte[] content, int mode, Set<PosixFilePermission> perms) throws IOException {
        PosixFileAttributes now;
        try {
            now = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            write(file, content, perms);
            return;
        }
        if (!now.isRegularFile()) throw new IOException("not a regular file");
        if (now.size() != content.length || !Arrays.equals(Files.readAllBytes(file), content)) {
            write(file, content, perms);
        } else if (mode(now.permissions()) != mode) {
            Files.setPosixFilePermissions(file, perms);
        }
    }

    /** Temp file beside the target, explicit mode, write, fsync, atomic rename. */
    private static void write(Path target, byte[] content, Set<PosixFilePermission> perms) throws IOException {
        Path temp = target.resolveSibling("." + target.getFileName() + ".floor-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                Files.setPosixFilePermissions(temp, perms);
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) out.write(buffer);
                out.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    private static String name(int i, int width) {
        String digits = Integer.toString(i);
        StringBuilder s = new StringBuilder(width + 1).append('f');
        for (int pad = width - digits.length(); pad > 0; pad--) s.append('0');
        return s.append(digits).toString();
    }

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < BITS.length; bit++) if ((mode & (1 << bit)) != 0) set.add(BITS[bit]);
        return set;
    }

    private static int mode(Set<PosixFilePermission> perms) {
        int mode = 0;
        for (int bit = 0; bit < BITS.length; bit++) if (perms.contains(BITS[bit])) mode |= 1 << bit;
        return mode;
    }
}
