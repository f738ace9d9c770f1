package io.muster.engine.util.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How many directories a run keeps open, and when it closes them. */
class TrustedDirectoriesTest {
    @TempDir
    Path root;

    @BeforeEach
    void setUp() throws Exception {
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A directory with a file that names it ({@code marker-a} in {@code a} and in {@code a.next}). */
    private Path directory(String name) throws Exception {
        Path dir = Files.createDirectory(root.resolve(name));
        Files.writeString(dir.resolve("marker-" + name.charAt(0)), name);
        return dir;
    }

    @Test
    void keepsTheMostRecentlyUsedUpToItsCapacityAndClosesThemAllWhenTheRunEnds() throws Exception {
        List<Path> dirs = new ArrayList<>();
        for (String name : List.of("a", "b", "c", "d", "e")) dirs.add(directory(name));
        TrustedDirectories kept = new TrustedDirectories(3);
        for (Path dir : dirs) kept.open(dir, -1).close();
        kept.open(dirs.get(2), -1).close(); // c is now the most recently used, a and b were dropped
        assertThat(openUnderRoot()).containsExactlyInAnyOrder(dirs.get(2), dirs.get(3), dirs.get(4));
        kept.close();
        assertThat(openUnderRoot()).isEmpty();
    }

    @Test
    void aDirectoryDroppedWhileInUseStaysOpenUntilItsUserClosesIt() throws Exception {
        Path a = directory("a");
        Path b = directory("b");
        try (TrustedDirectories kept = new TrustedDirectories(1)) {
            Directory inUse = kept.open(a, -1);
            kept.open(b, -1).close();
            assertThat(inUse.stat("marker-a")).as("a's descriptor, still a's").isNotNull();
            assertThat(openUnderRoot()).containsExactlyInAnyOrder(a, b);
            inUse.close();
            assertThat(openUnderRoot()).containsExactly(b);
        }
    }

    @Test
    void onceClosedItKeepsNothingItOpens() throws Exception {
        Path a = directory("a");
        TrustedDirectories kept = new TrustedDirectories(TrustedDirectories.CAPACITY);
        kept.close();
        try (Directory dir = kept.open(a, -1)) {
            assertThat(dir.stat("marker-a")).isNotNull();
        }
        assertThat(openUnderRoot()).isEmpty();
    }

    @Test
    void threadsSharingItWhileADirectoryIsReplacedAgainAndAgainEachUseTheirOwnDirectoryToTheEnd() throws Exception {
        List<Path> dirs = List.of(directory("a"), directory("b"), directory("c"));
        TrustedDirectories kept = new TrustedDirectories(2); // fewer than the directories: some are dropped while lent
        AtomicBoolean done = new AtomicBoolean();
        Thread replacer = Thread.ofPlatform().start(() -> {
            for (int i = 0; !done.get(); i++) {
                try {
                    Path next = directory("a.next");
                    Files.move(dirs.get(0), root.resolve("a.old" + i));
                    Files.move(next, dirs.get(0));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        });
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 8; t++) {
                threads.submit(() -> {
                    for (int i = 0; i < 2000; i++) {
                        Path dir = dirs.get(i % dirs.size());
                        String marker = "marker-" + dir.getFileName().toString().charAt(0);
                        try (Directory opened = kept.open(dir, -1)) {
                            if (opened.stat(marker) == null) failures.add(new AssertionError(dir + " has no " + marker + " through its descriptor"));
                        } catch (NoSuchFileException e) { // between the two renames
                        } catch (Libc.Errno e) {
                            if (e.errno != Libc.ENOENT) failures.add(e); // the same, met by the walk's openat
                        } catch (Exception e) {
                            failures.add(e);
                        }
                    }
                });
            }
        } finally {
            done.set(true);
            replacer.join();
        }
        assertThat(failures).isEmpty();
        kept.close();
        assertThat(openUnderRoot()).isEmpty();
    }

    /** The directories under the test's root this process has descriptors of. */
    private List<Path> openUnderRoot() throws Exception {
        List<Path> open = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(root) && !target.equals(root)) open.add(target);
                } catch (NoSuchFileException e) { // the listing's own descriptor, closed meanwhile
                }
            }
        }
        return open;
    }
}
