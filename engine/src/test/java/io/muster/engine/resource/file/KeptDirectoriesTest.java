package io.muster.engine.resource.file;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.report.Report;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run keeps the directories its files are in open (the file kind's session), so the next file there is not
 * walked from "/" again: a directory changed between two files of one run is still checked as a walk checks it,
 * and nothing stays open once the run ends.
 */
class KeptDirectoriesTest {
    @TempDir
    Path root;
    private Manifests m;
    private Path d;

    @BeforeEach
    void setUp() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "ownership rules need root");
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        m = new Manifests(root);
        d = Files.createDirectory(root.resolve("d"));
    }

    /** ROOT/d/a, then {@code between} as a command, then ROOT/d/b, in this order. */
    private Report applyAround(String between) throws Exception {
        return m.apply("""
                resources:
                  - file:
                      - ROOT/d/a: {content: "a"}
                  - exec:
                      - between: {command: ["sh", "-c", "BETWEEN"], require: "file#ROOT/d/a"}
                  - file:
                      - ROOT/d/b: {content: "b", require: "exec#between"}
                """.replace("BETWEEN", between.replace("ROOT", root.toString())));
    }

    private String error(Report report, String name) {
        return resource(report, "file#" + root.resolve(name)).error();
    }

    @Test
    void aDirectoryReplacedDuringTheRunIsWalkedAgainSoTheNextFileGoesWhereThePathNamesNow() throws Exception {
        Report report = applyAround("mv ROOT/d ROOT/old && mkdir ROOT/d");
        assertThat(error(report, "d/b")).isNull();
        assertThat(root.resolve("d/b")).hasContent("b");
        assertThat(root.resolve("old/a")).hasContent("a");
        assertThat(root.resolve("old/b")).doesNotExist();
    }

    @Test
    void aDirectoryMadeWritableByOthersDuringTheRunIsRefusedForTheNextFile() throws Exception {
        assertRefusedAfter("chmod 0777 ROOT/d",
                "writable by others (mode 0777) and not sticky; muster does not write below a directory others can change");
    }

    @Test
    void aDirectoryGivenToAnotherUserDuringTheRunIsRefusedForTheNextFile() throws Exception {
        assertRefusedAfter("chown nobody ROOT/d", "owned by nobody; muster writes only below directories owned by root");
    }

    private void assertRefusedAfter(String between, String why) throws Exception {
        assertThat(error(applyAround(between), "d/b")).isEqualTo("bad ownership or modes for directory " + d + ": " + why);
        assertThat(d.resolve("b")).doesNotExist();
    }

    @Test
    void aDirectorySwappedForAUsersLinkDuringTheRunIsNotFollowed() throws Exception {
        Path elsewhere = Files.createDirectory(root.resolve("elsewhere"));
        Report report = applyAround("mv ROOT/d ROOT/old && ln -s ROOT/elsewhere ROOT/d && chown -h nobody ROOT/d");
        assertThat(error(report, "d/b")).isEqualTo("bad ownership of symbolic link " + d
                + ": owned by nobody; muster follows only links owned by root");
        assertThat(elsewhere).isEmptyDirectory();
        assertThat(root.resolve("old/b")).doesNotExist();
    }

    @Test
    void aDirectoryRemovedDuringTheRunIsMissingForTheNextFile() throws Exception {
        Report report = applyAround("rm -r ROOT/d");
        assertThat(error(report, "d/b")).isEqualTo("parent directory " + d
                + " does not exist (manage it with a file resource, ensure: directory)");
    }

    @Test
    void noCommandOfTheRunInheritsAKeptDirectoryAndNoneStaysOpenOnceTheRunEnds() throws Exception {
        Report report = applyAround("ls -l /proc/self/fd > ROOT/fds");
        assertThat(error(report, "d/b")).isNull();
        assertThat(root.resolve("fds")).content().doesNotContain(d.toString());
        assertThat(openDescriptors()).doesNotContain(d);
    }

    /** Where the descriptors this process has open lead. */
    private static List<Path> openDescriptors() throws Exception {
        List<Path> targets = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    targets.add(Files.readSymbolicLink(fd));
                } catch (java.nio.file.NoSuchFileException e) { // the listing's own descriptor, closed meanwhile
                }
            }
        }
        return targets;
    }
}
