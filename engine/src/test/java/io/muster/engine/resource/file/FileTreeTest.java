package io.muster.engine.resource.file;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code source:} a directory with {@code recurse} (and {@code purge}), on real files, and what a planted link cannot do. */
class FileTreeTest {
    private static final String TREE = """
            resources:
              - file: [{ROOT/site: {ensure: directory, source: files, recurse: true%s}}]
            """;

    @TempDir
    Path dir;
    private Path files;
    private Path site;

    @BeforeEach
    void source() throws Exception {
        files = Files.createDirectories(dir.resolve("files/conf.d"));
        files = dir.resolve("files");
        Files.writeString(files.resolve("index.html"), "<h1>hi</h1>\n");
        Files.writeString(files.resolve("run.sh"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(files.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-x---"));
        Files.writeString(files.resolve("conf.d/a.conf"), "a=1\n");
        Files.createSymbolicLink(files.resolve("latest"), Path.of("conf.d/a.conf"));
        site = dir.resolve("site");
    }

    private ResourceReport apply(String extra) throws Exception {
        return resource(new Manifests(dir).apply(TREE.formatted(extra)), "file#" + site);
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void copiesContentModesAndLinksThenLeavesThemAloneThenRepairsDrift() throws Exception {
        ResourceReport first = apply("");
        assertThat(first.status()).isEqualTo(Status.CHANGED);
        assertThat(first.changes().getFirst().diff()).isEqualTo("+ " + site + "/\n+ conf.d/\n+ conf.d/a.conf\n+ index.html\n"
                + "+ latest -> conf.d/a.conf\n+ run.sh\n");
        assertThat(site.resolve("index.html")).hasContent("<h1>hi</h1>");
        assertThat(site.resolve("conf.d/a.conf")).hasContent("a=1");
        assertThat(mode(site.resolve("run.sh"))).isEqualTo("rwxr-x---");
        assertThat(Files.readSymbolicLink(site.resolve("latest"))).isEqualTo(Path.of("conf.d/a.conf"));

        assertThat(apply("").status()).isEqualTo(Status.STABLE);

        Files.writeString(site.resolve("conf.d/a.conf"), "tampered\n");
        Files.setPosixFilePermissions(site.resolve("index.html"), PosixFilePermissions.fromString("rw-rw-rw-"));
        Files.delete(site.resolve("run.sh"));
        ResourceReport repair = apply("");
        assertThat(repair.changes().getFirst().diff()).isEqualTo("~ conf.d/a.conf: content\n~ index.html: mode 0666 -> 0644\n+ run.sh\n");
        assertThat(site.resolve("conf.d/a.conf")).hasContent("a=1");
        assertThat(mode(site.resolve("index.html"))).isEqualTo("rw-r--r--");
    }

    @Test
    void noopChangesNothing() throws Exception {
        ResourceReport plan = resource(new Manifests(dir).plan(TREE.formatted("")), "file#" + site);
        assertThat(plan.status()).isEqualTo(Status.CHANGED);
        assertThat(site).doesNotExist();
    }

    @Test
    void purgeRemovesWhatTheSourceDoesNotHaveAndOnlyWithPurge() throws Exception {
        apply("");
        Files.writeString(site.resolve("stray"), "x");
        Files.createDirectories(site.resolve("conf.d/old/deeper"));
        assertThat(apply("").status()).isEqualTo(Status.STABLE);
        assertThat(site.resolve("stray")).exists();

        ResourceReport purged = apply(", purge: true");
        assertThat(purged.changes().getFirst().diff()).isEqualTo("- conf.d/old\n- stray\n");
        assertThat(site.resolve("stray")).doesNotExist();
        assertThat(site.resolve("conf.d/old")).doesNotExist();
        assertThat(site.resolve("conf.d/a.conf")).exists();
    }

    @Test
    void aLinkPlantedWhereASourceDirectoryIsIsReplacedNotFollowed() throws Exception {
        Path victim = Files.createDirectories(dir.resolve("victim"));
        Files.writeString(victim.resolve("a.conf"), "precious\n");
        Files.createDirectories(site);
        Files.createSymbolicLink(site.resolve("conf.d"), victim);
        Files.createSymbolicLink(site.resolve("index.html"), victim.resolve("a.conf"));

        assertThat(apply("").status()).isEqualTo(Status.CHANGED);
        assertThat(victim.resolve("a.conf")).hasContent("precious");
        try (var stream = Files.list(victim)) {
            assertThat(stream).hasSize(1);
        }
        assertThat(Files.isDirectory(site.resolve("conf.d"), LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertThat(Files.isSymbolicLink(site.resolve("index.html"))).isFalse();
        assertThat(site.resolve("index.html")).hasContent("<h1>hi</h1>");
    }

    @Test
    void purgeRemovesAPlantedLinkWithoutFollowingIt() throws Exception {
        Path victim = Files.createDirectories(dir.resolve("victim"));
        Files.writeString(victim.resolve("keep"), "precious\n");
        apply("");
        Files.createSymbolicLink(site.resolve("junk"), victim);
        Files.createSymbolicLink(site.resolve("conf.d/junk"), victim.resolve("keep"));

        assertThat(apply(", purge: true").changes().getFirst().diff()).isEqualTo("- conf.d/junk\n- junk\n");
        assertThat(site.resolve("junk")).doesNotExist();
        assertThat(victim.resolve("keep")).hasContent("precious");
    }

    @Test
    void aFileHardLinkedIntoTheTreeIsReplacedNotWritten() throws Exception {
        apply("");
        Path outside = Files.writeString(dir.resolve("outside"), "outside\n");
        Files.delete(site.resolve("index.html"));
        Files.createLink(site.resolve("index.html"), outside);

        apply("");
        assertThat(outside).hasContent("outside");
        assertThat(mode(outside)).isEqualTo("rw-r--r--");
        assertThat(site.resolve("index.html")).hasContent("<h1>hi</h1>");
    }

    @Test
    void aSourceThatIsADirectoryWithoutRecurseIsAClearError() throws Exception {
        ResourceReport r = resource(new Manifests(dir).apply("""
                resources:
                  - file: [{ROOT/copy: {source: files}}]
                """), "file#" + dir.resolve("copy"));
        assertThat(r.error()).isEqualTo("source " + files + " is a directory, not a regular file");
    }

    @Test
    void aTreeInsideItsSourceIsACompileError() {
        assertThatThrownBy(() -> new Manifests(dir).compile("""
                resources:
                  - file: [{ROOT/files/copy: {source: files, recurse: true}}]
                """)).hasMessageContaining("source: the tree " + dir.resolve("files/copy") + " and its source " + files
                + " may not contain each other");
    }
}
