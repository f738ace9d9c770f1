package io.muster.engine.run;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real files, the real inotify WatchService: each change {@link PathWatches} promises to see. */
class PathWatchesTest {
    /** A deadline, not a delay: generous, since inotify events of a loaded 2-core machine can queue for seconds. */
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Duration QUIET = Duration.ofMillis(200);

    /** The threads the watches' dispatcher runs on: those of the run that owns them. */
    private static final ThreadFactory THREADS = Thread.ofVirtual().name("run-thread").factory();

    @TempDir Path dir;
    private PathWatches watches;

    @BeforeEach
    void open() throws IOException {
        watches = new PathWatches(THREADS);
    }

    @AfterEach
    void close() throws IOException {
        watches.close();
    }

    private AtomicInteger watch(Path path) throws IOException {
        AtomicInteger told = new AtomicInteger();
        watches.watch(path, told::incrementAndGet);
        return told;
    }

    private static void awaitAtLeast(AtomicInteger told, int n) {
        await().atMost(WAIT).until(() -> told.get() >= n);
    }

    @Test
    void contentChangeIsNoticed() throws IOException {
        Path f = Files.writeString(dir.resolve("f"), "a");
        AtomicInteger told = watch(f);
        Files.writeString(f, "b");
        awaitAtLeast(told, 1);
    }

    @Test
    void changesAreHandedOnOnAThreadOfTheRunsFactory() throws IOException {
        Path f = Files.writeString(dir.resolve("f"), "a");
        AtomicReference<String> thread = new AtomicReference<>();
        watches.watch(f, () -> thread.set(Thread.currentThread().getName()));
        Files.writeString(f, "b");
        await().atMost(WAIT).until(() -> "run-thread".equals(thread.get()));
    }

    @Test
    void chmodIsNoticed() throws IOException {
        Path f = Files.writeString(dir.resolve("f"), "a");
        AtomicInteger told = watch(f);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        awaitAtLeast(told, 1);
    }

    @Test
    void deletionIsNoticed() throws IOException {
        Path f = Files.writeString(dir.resolve("f"), "a");
        AtomicInteger told = watch(f);
        Files.delete(f);
        awaitAtLeast(told, 1);
    }

    @Test
    void replacementByRenameIsNoticed() throws IOException {
        Path f = Files.writeString(dir.resolve("f"), "a");
        Path tmp = Files.writeString(dir.resolve("f.tmp"), "b");
        AtomicInteger told = watch(f);
        Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        awaitAtLeast(told, 1);
    }

    @Test
    void watchMovesDownAsMissingDirectoriesAppear() throws IOException {
        Path f = dir.resolve("a/b/f");
        AtomicInteger told = watch(f);
        Files.createDirectory(dir.resolve("a"));
        awaitAtLeast(told, 1); // now watched from a
        Files.createDirectory(dir.resolve("a/b"));
        awaitAtLeast(told, 2); // now watched from a/b
        Files.writeString(f, "x");
        awaitAtLeast(told, 3);
    }

    @Test
    void removedDirectoryHandsItsPathsUpAndARecreatedFileIsNoticed() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path f = Files.writeString(sub.resolve("f"), "a");
        AtomicInteger told = watch(f);
        Files.delete(f);
        Files.delete(sub);
        awaitAtLeast(told, 1);
        int afterRemoval = told.get();
        Files.createDirectory(sub);
        awaitAtLeast(told, afterRemoval + 1);
        int afterRecreation = told.get();
        Files.writeString(f, "b");
        awaitAtLeast(told, afterRecreation + 1);
    }

    @Test
    void aDirectoryMovedAwayAndMadeAgainIsWatchedAtItsPath() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path f = Files.writeString(sub.resolve("f"), "a");
        AtomicInteger told = watch(f);
        watch(sub); // its parent is watched, as when the directory is managed too
        Files.move(sub, dir.resolve("moved-away"));
        Files.createDirectory(sub);
        awaitAtLeast(told, 1);
        int afterMove = told.get();
        Files.writeString(dir.resolve("moved-away/f"), "b"); // the old directory's file: not f any more
        Files.writeString(f, "c");
        awaitAtLeast(told, afterMove + 1);
    }

    @Test
    void twoSubscriptionsOnOnePathAreBothToldAndClosingOneLeavesTheOther() throws Exception {
        Path f = Files.writeString(dir.resolve("f"), "a");
        Path sentinel = Files.writeString(dir.resolve("sentinel"), "a");
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        AutoCloseable firstWatch = watches.watch(f, first::incrementAndGet);
        watches.watch(f, second::incrementAndGet);
        AtomicInteger sentinelTold = watch(sentinel);
        Files.writeString(f, "b");
        awaitAtLeast(first, 1);
        awaitAtLeast(second, 1);

        firstWatch.close();
        int firstBefore = first.get();
        int secondBefore = second.get();
        Files.writeString(f, "c");
        Files.writeString(sentinel, "b"); // same directory: its event comes after f's
        awaitAtLeast(second, secondBefore + 1);
        awaitAtLeast(sentinelTold, 1);
        assertTrue(first.get() == firstBefore, "a closed subscription was told");
    }

    @Test
    void nothingIsToldAfterClose() throws IOException {
        Path f = Files.writeString(dir.resolve("f"), "a");
        AtomicInteger told = watch(f);
        Files.writeString(f, "b");
        awaitAtLeast(told, 1);
        watches.close();
        int before = told.get();
        // A second, independent watch service proves the change below has reached inotify.
        try (PathWatches witness = new PathWatches(THREADS)) {
            AtomicInteger witnessed = new AtomicInteger();
            witness.watch(f, witnessed::incrementAndGet);
            Files.writeString(f, "c");
            awaitAtLeast(witnessed, 1);
        }
        await().during(QUIET).atMost(WAIT).until(() -> told.get() == before);
    }

    @Test
    void manyEventsInOneBatchTellASubscriptionOnce() throws IOException {
        Path tree = Files.createDirectory(dir.resolve("tree"));
        Path f = tree.resolve("f");
        AtomicInteger told = watch(f);
        int events = 0;
        for (int i = 0; i < 500; i++) {
            Files.writeString(f, "x");
            Files.delete(f);
            events += 2; // at least IN_CREATE and IN_DELETE for f
        }
        try (Stream<Path> all = Files.walk(tree)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
        // The directory's removal ends its watch; the subscription moves up to dir and is still there.
        awaitAtLeast(told, 1);
        int total = events;
        await().during(QUIET).atMost(WAIT).until(() -> told.get() < total);
        int beforeRecreation = told.get();
        Files.createDirectory(tree);
        awaitAtLeast(told, beforeRecreation + 1);
    }
}
