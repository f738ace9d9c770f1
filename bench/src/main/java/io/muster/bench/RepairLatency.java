package io.muster.bench;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The measuring half of bench/repair-latency.sh: tampers with files and times how long until they are
 * back in their desired state.
 *
 * <pre>
 *   java -cp bench/target/classes io.muster.bench.RepairLatency MANAGED FLOOR SPARE N CONTENT WARMUP TRIALS
 * </pre>
 *
 * {@code MANAGED} holds {@code f00001 .. fNNNNN} (five digits at least) of {@code CONTENT}, mode 0644,
 * kept so by a running {@code muster run}. {@code FLOOR} holds the same files with nothing managing them.
 * {@code SPARE} is an empty directory on the same file system, for the files renamed over a target.
 *
 * <p>Each trial does one tamper, the kinds in rotation: {@code delete} (unlink), {@code content} (the
 * same number of other bytes written in place with one pwrite: no truncation that a repair could race
 * with), {@code mode} (chmod 0600), {@code rename} (a file of other content renamed over it). Per trial:
 * <ol>
 *   <li>floor: the same tamper on a file in {@code FLOOR}; the time until this process's own watcher
 *       (the JDK's WatchService, inotify on Linux, as muster uses) delivers the event for that name. That
 *       is the least any watching tool can react in. The file is then put back by this process.
 *   <li>muster: the tamper on a file in {@code MANAGED}; the time until the file has the desired content
 *       and mode again. Checked after every event for that name and, so that a missed event cannot hang
 *       the trial, every 1 ms without one; given up after 5 s (a missed repair: put back by this process).
 * </ol>
 * Both are timed with {@link System#nanoTime} from just before the tampering system call. Between trials
 * a pause of 25-50 ms (random, seeded) lets muster's own aftermath settle (its watch sees its own
 * rename and checks once more), so each trial starts from a quiet state. A file whose inode or change
 * time moves during that pause was changed again after it was already right: a double repair.
 *
 * <p>Prints one line per trial on stdout, {@code PHASE TARGET KIND FILE MICROS HOW EXTRA}: PHASE is
 * {@code warmup} or {@code trial}; HOW is {@code event} (seen on an event), {@code poll} (seen by the
 * 1 ms fallback check) or {@code missed}; EXTRA is 1 when the file changed again after it was seen
 * repaired (muster only; 0 normally). Exit code 0, 1 on an I/O error, 64 on bad usage.
 */
public final class RepairLatency {
    private static final String[] KINDS = {"delete", "content", "mode", "rename"};
    private static final int MODE = 0644;
    private static final int TAMPERED_MODE = 0600;
    private static final long FALLBACK_MS = 1;
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final int PAUSE_MS = 25;

    private final Path managed;
    private final Path floor;
    private final Path spare;
    private final int n;
    private final byte[] content;
    private final byte[] drifted;
    private final WatchService watcher;
    private final Random random = new Random(42); // the same pauses every run
    private int spares;

    private RepairLatency(Path managed, Path floor, Path spare, int n, byte[] content) throws IOException {
        this.managed = managed;
        this.floor = floor;
        this.spare = spare;
        this.n = n;
        this.content = content;
        this.drifted = content.clone();
        for (int i = 0; i < Math.min(6, drifted.length); i++) drifted[i] = (byte) (drifted[i] == 'X' ? 'Y' : 'X');
        this.watcher = FileSystems.getDefault().newWatchService();
        // The events muster registers for, so that both see the same inotify traffic.
        managed.register(watcher, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY);
        floor.register(watcher, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY);
    }

    public static void main(String[] args) {
        if (args.length != 7) {
            System.err.println("usage: RepairLatency MANAGED FLOOR SPARE N CONTENT WARMUP TRIALS");
            System.exit(64);
        }
        int n;
        int warmup;
        int trials;
        try {
            n = Integer.parseInt(args[3]);
            warmup = Integer.parseInt(args[5]);
            trials = Integer.parseInt(args[6]);
            if (n < 1 || warmup < 0 || trials < 1) throw new NumberFormatException("N >= 1, WARMUP >= 0, TRIALS >= 1");
        } catch (NumberFormatException e) {
            System.err.println("RepairLatency: bad number: " + e.getMessage());
            System.exit(64);
            return;
        }
        try {
            RepairLatency bench = new RepairLatency(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]), n,
                    args[4].getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < warmup + trials; i++) bench.trial(i, i < warmup ? "warmup" : "trial");
        } catch (IOException e) {
            System.err.println("RepairLatency: " + e);
            System.exit(1);
        } catch (InterruptedException e) {
            System.exit(1);
        }
        System.exit(0);
    }

    private void trial(int i, String phase) throws IOException, InterruptedException {
        String kind = KINDS[i % KINDS.length];
        // A prime stride: consecutive trials hit different files, and every file in turn.
        String name = name(1 + (int) ((i * 7919L) % n));

        Path f = floor.resolve(name);
        drain();
        long t0 = tamper(kind, f);
        long seen = awaitEvent(floor, name);
        report(phase, "floor", kind, name, seen < 0 ? -1 : seen - t0, seen < 0 ? "missed" : "event", 0);
        restore(f);
        pause();

        Path m = managed.resolve(name);
        drain();
        t0 = tamper(kind, m);
        long[] repaired = awaitRepair(m, name);
        long t1 = repaired[0];
        if (t1 < 0) {
            report(phase, "muster", kind, name, -1, "missed", 0);
            restore(m);
            pause();
            return;
        }
        Object before = identity(m);
        pause();
        int extra = Objects.equals(before, identity(m)) ? 0 : 1;
        report(phase, "muster", kind, name, t1 - t0, repaired[1] == 1 ? "event" : "poll", extra);
    }

    /** Does one tamper; returns System.nanoTime() from just before its system call. */
    private long tamper(String kind, Path file) throws IOException {
        long t0;
        switch (kind) {
            case "delete" -> {
                t0 = System.nanoTime();
                Files.delete(file);
            }
            case "content" -> {
                try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ByteBuffer buffer = ByteBuffer.wrap(drifted);
                    t0 = System.nanoTime();
                    out.write(buffer, 0); // one pwrite of the whole, same size: the file is never short
                }
            }
            case "mode" -> {
                t0 = System.nanoTime();
                Files.setAttribute(file, "unix:mode", TAMPERED_MODE, LinkOption.NOFOLLOW_LINKS);
            }
            case "rename" -> {
                Path other = spare.resolve("r" + spares++);
                Files.write(other, drifted);
                Files.setAttribute(other, "unix:mode", MODE);
                t0 = System.nanoTime();
                Files.move(other, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            default -> throw new IllegalArgumentException(kind);
        }
        return t0;
    }

    /** The time this watcher delivered an event for {@code name} in {@code dir}, or -1 after 5 s. */
    private long awaitEvent(Path dir, String name) throws InterruptedException {
        long deadline = System.nanoTime() + GIVE_UP_NANOS;
        while (System.nanoTime() < deadline) {
            WatchKey key = watcher.poll(FALLBACK_MS, TimeUnit.MILLISECONDS);
            if (key == null) continue;
            long now = System.nanoTime();
            boolean hit = key.watchable().equals(dir) && names(key, name);
            if (hit) return now;
        }
        return -1;
    }

    /**
     * Waits until {@code file} is in the desired state: checked after each event for its name, and every
     * 1 ms without one. Returns {time, 1 when seen after an event or 0 when by the fallback}, or {-1, 0}.
     */
    private long[] awaitRepair(Path file, String name) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + GIVE_UP_NANOS;
        while (System.nanoTime() < deadline) {
            WatchKey key = watcher.poll(FALLBACK_MS, TimeUnit.MILLISECONDS);
            boolean event = key != null && key.watchable().equals(managed) && names(key, name);
            if (key != null && !event) continue; // another name's event: nothing to check
            if (desired(file)) return new long[] {System.nanoTime(), event ? 1 : 0};
        }
        return new long[] {-1, 0};
    }

    /** Whether the key's pending events name {@code name} (or overflowed); consumes them and resets. */
    private static boolean names(WatchKey key, String name) {
        boolean hit = false;
        for (WatchEvent<?> e : key.pollEvents()) {
            if (e.kind() == OVERFLOW || name.equals(e.context().toString())) hit = true;
        }
        key.reset();
        return hit;
    }

    private boolean desired(Path file) throws IOException {
        try {
            Map<String, Object> a = Files.readAttributes(file, "unix:mode,size,isRegularFile", LinkOption.NOFOLLOW_LINKS);
            if (!(Boolean) a.get("isRegularFile") || ((Integer) a.get("mode") & 07777) != MODE
                    || (Long) a.get("size") != content.length) {
                return false;
            }
            return Arrays.equals(Files.readAllBytes(file), content);
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** Inode and change time: a rewrite or chmod after the repair changes one of them. */
    private static Object identity(Path file) throws IOException {
        try {
            Map<String, Object> a = Files.readAttributes(file, "unix:ino,ctime", LinkOption.NOFOLLOW_LINKS);
            return a.get("ino") + "@" + a.get("ctime");
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Puts a file back as muster would: temp file, mode, write, atomic rename. */
    private void restore(Path file) throws IOException {
        Path temp = file.resolveSibling("." + file.getFileName() + ".bench");
        Files.write(temp, content);
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Sleeps 25-50 ms. Events pile up meanwhile; the next trial drains them before it tampers. */
    private void pause() throws InterruptedException {
        Thread.sleep(PAUSE_MS + random.nextInt(PAUSE_MS + 1));
    }

    private void drain() {
        WatchKey key;
        while ((key = watcher.poll()) != null) {
            key.pollEvents();
            key.reset();
        }
    }

    private String name(int i) {
        String digits = Integer.toString(i);
        int width = Math.max(5, Integer.toString(n).length());
        return "f" + "0".repeat(Math.max(0, width - digits.length())) + digits;
    }

    private static void report(String phase, String target, String kind, String name, long nanos, String how, int extra) {
        long micros = nanos < 0 ? -1 : nanos / 1000;
        System.out.println(phase + " " + target + " " + kind + " " + name + " " + micros + " " + how + " " + extra);
    }
}
