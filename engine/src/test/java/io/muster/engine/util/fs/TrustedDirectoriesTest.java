package io.muster.engine.util.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
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

    private Path directory(String name) throws Exception {
        Path dir = Files.createDirectory(root.resolve(name));
        Files.writeString(dir.resolve("marker-" + name), name);
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
