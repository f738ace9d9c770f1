package io.muster.engine.resource.file;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.run.StatusFile;
import io.muster.engine.testing.Manifests;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules muster keeps for every file it writes: trusted parents, private temp and state files, bounded reads. */
class FileSafetyTest {
    @TempDir
    Path dir;
    private Manifests m;

    @BeforeEach
    void setUp() {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "ownership rules need root");
        m = new Manifests(dir);
    }

    private String error(Report report, String name) {
        return resource(report, "file#" + dir.resolve(name)).error();
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    private static void chown(Path path, int uid) throws Exception {
        Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
    }

    @Test
    void aParentOwnedByAnotherUserIsRefusedUnlessThatUserOwnsTheFile() throws Exception {
        chown(Files.createDirectory(dir.resolve("alice")), Attacker.NOBODY);
        Report report = m.apply("""
                resources:
                  - file:
                      - ROOT/alice/refused: {content: "x"}
                      - ROOT/alice/theirs: {content: "x", owner: nobody}
                """);
        assertThat(error(report, "alice/refused")).isEqualTo("bad ownership or modes for directory " + dir.resolve("alice")
                + ": owned by nobody; muster writes only below directories owned by root");
        assertThat(dir.resolve("alice/refused")).doesNotExist();
        assertThat(error(report, "alice/theirs")).isNull();
        assertThat(Files.getOwner(dir.resolve("alice/theirs")).getName()).isEqualTo("nobody");
    }

    @Test
    void aParentWritableByOthersIsRefusedUnlessSticky() throws Exception {
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path sticky = Files.createDirectory(dir.resolve("sticky"));
        Files.setAttribute(sticky, "unix:mode", 01777);
        Report report = m.apply("""
                resources:
                  - file:
                      - ROOT/open/f: {content: "x"}
                      - ROOT/sticky/f: {content: "x"}
                """);
        assertThat(error(report, "open/f")).isEqualTo("bad ownership or modes for directory " + open
                + ": writable by others (mode 0777) and not sticky; muster does not write below a directory others can change");
        assertThat(error(report, "sticky/f")).isNull();
    }

    @Test
    void aLinkAmongTheParentsIsFollowedOnlyWhenRootOwnsIt() throws Exception {
        Path real = Files.createDirectory(dir.resolve("real"));
        Files.createSymbolicLink(dir.resolve("roots"), real);
        chown(Files.createSymbolicLink(dir.resolve("users"), real), Attacker.NOBODY);
        Report report = m.apply("""
                resources:
                  - file:
                      - ROOT/roots/a: {content: "x"}
                      - ROOT/users/b: {content: "x", owner: nobody}
                """);
        assertThat(error(report, "roots/a")).isNull();
        assertThat(real.resolve("a")).hasContent("x");
        assertThat(error(report, "users/b")).isEqualTo("bad ownership of symbolic link " + dir.resolve("users")
                + ": owned by nobody; muster follows only links owned by root");
        assertThat(real.resolve("b")).doesNotExist();
    }

    @Test
    void tempFilesAKilledRunLeftAreRemovedWhenTheFileIsNextWritten() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "keep");
        Files.writeString(dir.resolve(".motd.muster-0123456789abcdef"), "left by kill -9");
        Files.createSymbolicLink(dir.resolve(".motd.muster-fedcba9876543210"), victim);
        Files.writeString(dir.resolve(".motd.muster-notours"), "not muster's pattern");
        Files.writeString(dir.resolve(".other.muster-0123456789abcdef"), "another file's");
        m.apply("""
                resources:
                  - file: [{ROOT/motd: {content: "hello"}}]
                """);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("victim", "motd", "site.yaml",
                    ".motd.muster-fedcba9876543210", ".motd.muster-notours", ".other.muster-0123456789abcdef");
        }
        assertThat(victim).hasContent("keep");
    }

    @Test
    void aSourceMustBeARegularFileOfAtMost64MiB() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        try (RandomAccessFile big = new RandomAccessFile(dir.resolve("big").toFile(), "rw")) {
            big.setLength((64L << 20) + 1);
        }
        Report report = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> m.apply("""
                resources:
                  - file:
                      - ROOT/from-fifo: {source: fifo}
                      - ROOT/from-zero: {source: /dev/zero}
                      - ROOT/from-big: {source: big}
                """));
        assertThat(error(report, "from-fifo")).isEqualTo("source " + fifo + " is a special file, not a regular file");
        assertThat(error(report, "from-zero")).isEqualTo("source /dev/zero is a special file, not a regular file");
        assertThat(error(report, "from-big")).isEqualTo("source " + dir.resolve("big") + " is 67108865 bytes; muster reads files of up to 64 MiB into memory");
    }

    @Test
    void aFifoAtTheManagedPathIsReplacedWithoutHanging() throws Exception {
        Path fifo = dir.resolve("conf");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Report report = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> m.apply("""
                resources:
                  - file: [{ROOT/conf: {content: "x"}}]
                """));
        assertThat(resource(report, "file#" + fifo).changedAttributes()).containsExactly("ensure", "content");
        assertThat(fifo).isRegularFile().hasContent("x");
    }

    @Test
    void aFileWithAnotherHardLinkIsNotChangedInPlace() throws Exception {
        Path other = Files.writeString(dir.resolve("other"), "x");
        Files.createLink(dir.resolve("linked"), other);
        Report report = m.apply("""
                resources:
                  - file: [{ROOT/linked: {mode: "0600"}}]
                """);
        assertThat(error(report, "linked")).isEqualTo(dir.resolve("linked") + " has 2 hard links; muster changes the owner and mode only of a file with one");
        assertThat(mode(other)).isEqualTo("rw-r--r--");
    }

    @Test
    void reverseKeepsTheOriginalOfAPrivateFilePrivate() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "original secret");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        ResourceReport r = resource(m.apply("""
                resources:
                  - file: [{ROOT/secret: {content: "new", meta: {reverse: true}}}]
                """), "file#" + secret);
        assertThat(r.status()).isEqualTo(Status.CHANGED);
        Path prefix = dir.resolve(".prefix");
        List<Path> stateDirs;
        try (var walk = Files.walk(prefix)) {
            stateDirs = walk.filter(Files::isDirectory).toList();
        }
        assertThat(stateDirs).hasSize(4).allSatisfy(d -> assertThat(mode(d)).as("mode of %s", d).isEqualTo("rwx------"));
        Path kept = stateDirs.getLast().resolve("original.content");
        assertThat(kept).hasContent("original secret");
        assertThat(mode(kept)).isEqualTo("rw-------");
        assertThat(mode(kept.resolveSibling("original.properties"))).isEqualTo("rw-------");
    }

    @Test
    void theStatusFileReplacesALinkAtItsPathInsteadOfFollowingIt() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "root's file");
        Path status = Files.createSymbolicLink(dir.resolve("status"), victim);
        new StatusFile(status).write(true);
        assertThat(victim).hasContent("root's file");
        assertThat(status).isRegularFile().hasContent("converged\n");
        assertThat(mode(status)).isEqualTo("rw-r--r--");
    }
}
