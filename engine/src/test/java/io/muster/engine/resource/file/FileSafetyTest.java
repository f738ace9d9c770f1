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
import java.util.concurrent.TimeUnit;
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
    void aFileAnotherUserMadeInAStickyWorldWritableDirectoryIsNotWrittenUnlessTheManifestMakesItTheirs() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // nobody may pass through
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Files.setAttribute(tmp, "unix:mode", 01777);
        for (String name : List.of("x", "same", "x.json", "theirs")) asNobody("printf same > " + tmp.resolve(name));
        Report report = m.apply("""
                resources:
                  - file:
                      - ROOT/tmp/x: {content: "secret"}
                      - ROOT/tmp/same: {content: "same", owner: root}
                      - ROOT/tmp/theirs: {content: "theirs", owner: nobody}
                  - document:
                      - ROOT/tmp/x.json: {content: {password: secret}}
                """);
        assertThat(error(report, "tmp/x")).isEqualTo(tmp.resolve("x") + " is owned by nobody in the sticky world-writable directory "
                + tmp + "; muster does not write into a file another user owns there; set owner: nobody to manage it as theirs, or remove it");
        assertThat(error(report, "tmp/same")).startsWith(tmp.resolve("same") + " is owned by nobody");
        assertThat(resource(report, "document#" + tmp.resolve("x.json")).error()).isEqualTo(tmp.resolve("x.json")
                + " is owned by nobody in the sticky world-writable directory " + tmp
                + "; muster does not write into a file another user owns there; remove it");
        for (String name : List.of("x", "same", "x.json")) {
            assertThat(tmp.resolve(name)).as(name).hasContent("same");
            assertThat(Files.getOwner(tmp.resolve(name)).getName()).as(name).isEqualTo("nobody");
        }
        assertThat(error(report, "tmp/theirs")).isNull();
        assertThat(tmp.resolve("theirs")).hasContent("theirs");
        assertThat(Files.getOwner(tmp.resolve("theirs")).getName()).isEqualTo("nobody");
    }

    @Test
    void aFileGivenToRootIsANewFileSoItsFormerOwnersOpenDescriptorCannotWriteIntoIt() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path conf = Files.writeString(dir.resolve("conf"), "root's");
        chown(conf, Attacker.NOBODY);
        // nobody opens its file for writing, then writes through that descriptor once root owns the file
        Process holder = new ProcessBuilder("setpriv", "--reuid=" + Attacker.NOBODY, "--regid=" + Attacker.NOBODY, "--clear-groups",
                "sh", "-c", "exec 3>>\"$0\"; echo open; read go; printf injected >&3", conf.toString()).start();
        try {
            assertThat(holder.inputReader().readLine()).isEqualTo("open");
            Report report = m.apply("""
                    resources:
                      - file: [{ROOT/conf: {content: "root's", owner: root}}]
                    """);
            assertThat(resource(report, "file#" + conf).changedAttributes()).containsExactly("owner");
            holder.outputWriter().write("go\n");
            holder.outputWriter().flush();
            assertThat(holder.waitFor(10, TimeUnit.SECONDS) && holder.exitValue() == 0).isTrue();
        } finally {
            holder.destroyForcibly();
        }
        assertThat(conf).hasContent("root's");
        assertThat(Files.getOwner(conf).getName()).isEqualTo("root");
    }

    private static void asNobody(String script) throws Exception {
        Process sh = new ProcessBuilder("setpriv", "--reuid=" + Attacker.NOBODY, "--regid=" + Attacker.NOBODY, "--clear-groups",
                "sh", "-c", script).inheritIO().start();
        assertThat(sh.waitFor()).isZero();
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
    void aSourceIsReadThroughAUsersLinkNeverSoThatUserCannotHaveRootCopyFilesOnlyRootMayRead() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "root only");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Path alice = Files.createDirectory(dir.resolve("alice"));
        chown(alice, Attacker.NOBODY);
        chown(Files.writeString(alice.resolve("own.conf"), "alice's"), Attacker.NOBODY);
        chown(Files.createSymbolicLink(alice.resolve("app.conf"), secret), Attacker.NOBODY);
        chown(Files.createSymbolicLink(alice.resolve("dir"), dir), Attacker.NOBODY);
        Files.createSymbolicLink(dir.resolve("roots.conf"), alice.resolve("own.conf"));
        Report report = m.apply("""
                resources:
                  - file:
                      - ROOT/copy: {source: alice/app.conf}
                      - ROOT/through-dir: {source: alice/dir/secret}
                      - ROOT/own: {source: alice/own.conf}
                      - ROOT/through-roots-link: {source: roots.conf}
                """);
        assertThat(error(report, "copy")).isEqualTo("source bad ownership of symbolic link "
                + alice.resolve("app.conf") + ": owned by nobody; muster follows only links owned by root");
        assertThat(error(report, "through-dir")).contains("bad ownership of symbolic link " + alice.resolve("dir"));
        assertThat(dir.resolve("copy")).doesNotExist();
        assertThat(dir.resolve("through-dir")).doesNotExist();
        assertThat(dir.resolve("own")).as("a user's directory and file may be a source").hasContent("alice's");
        assertThat(dir.resolve("through-roots-link")).as("root's links are followed").hasContent("alice's");
    }

    @Test
    void aTreeAUserNestedThousandsDeepIsAnErrorNotAStackOverflowAndOneLessDeepIsRemoved() throws Exception {
        Path alice = Files.createDirectory(dir.resolve("alice"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // nobody may pass through
        chown(alice, Attacker.NOBODY);
        nest(alice.resolve("deep"), 20_000);
        nest(alice.resolve("shallow"), 900);
        Report report = m.apply("""
                resources:
                  - file:
                      - ROOT/alice/deep: {ensure: absent, force: true, owner: nobody}
                      - ROOT/alice/shallow: {ensure: absent, force: true, owner: nobody}
                """);
        assertThat(error(report, "alice/deep")).startsWith("cannot remove " + alice.resolve("deep/d/d"))
                .endsWith(": the tree is more than 1000 directories deep, the most muster removes");
        assertThat(error(report, "alice/shallow")).isNull();
        assertThat(alice.resolve("shallow")).doesNotExist();
        assertThat(new ProcessBuilder("rm", "-rf", alice.toString()).start().waitFor()).as("cleaned up (JUnit cannot go that deep)").isZero();
    }

    /** {@code depth} directories {@code top/d/d/…}, made by nobody (with perl: sh cannot cd deeper than a path may be long). */
    private static void nest(Path top, int depth) throws Exception {
        Process mkdirs = new ProcessBuilder("setpriv", "--reuid=" + Attacker.NOBODY, "--regid=" + Attacker.NOBODY, "--clear-groups",
                "perl", "-e", "mkdir $ARGV[0] and chdir $ARGV[0] or die $!; for (2 .. $ARGV[1]) { mkdir 'd' and chdir 'd' or die $! }",
                top.toString(), Integer.toString(depth)).inheritIO().start();
        assertThat(mkdirs.waitFor()).isZero();
    }

    @Test
    void theSha256OfASparseFileOfTerabytesIsAnErrorNotHoursOfHashing() throws Exception {
        Path huge = dir.resolve("huge");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(1L << 40); // what a user can make of their own file in an instant
        }
        Report report = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> m.apply("""
                resources:
                  - file: [ROOT/huge]
                  - msg: [{m: {message: "${ lookup('file#ROOT/huge.sha256') }"}}]
                """));
        assertThat(error(report, "huge")).isEqualTo(huge + " is 1099511627776 bytes; muster hashes files of up to 4 GiB");
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
