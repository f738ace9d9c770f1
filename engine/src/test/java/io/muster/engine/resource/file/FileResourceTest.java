package io.muster.engine.resource.file;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileResourceTest {
    @TempDir
    Path dir;

    private Manifests m() {
        return new Manifests(dir);
    }

    private String id(String name) {
        return "file#" + dir.resolve(name);
    }

    private String mode(String name) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(name)));
    }

    @Test
    void createsThenLeavesAloneThenRepairs() throws Exception {
        String yaml = """
                resources:
                  - file:
                      - ROOT/motd: {content: "hello\\n", mode: "0640"}
                """;
        ResourceReport first = resource(m().apply(yaml), id("motd"));
        assertThat(first.status()).isEqualTo(Status.CHANGED);
        assertThat(first.changedAttributes()).containsExactly("ensure", "content");
        assertThat(Files.readString(dir.resolve("motd"))).isEqualTo("hello\n");
        assertThat(mode("motd")).isEqualTo("rw-r-----");

        assertThat(resource(m().apply(yaml), id("motd")).status()).isEqualTo(Status.STABLE);

        Files.writeString(dir.resolve("motd"), "tampered\n");
        Files.setPosixFilePermissions(dir.resolve("motd"), PosixFilePermissions.fromString("rw-rw-rw-"));
        ResourceReport repair = resource(m().apply(yaml), id("motd"));
        assertThat(repair.changedAttributes()).containsExactly("content", "mode");
        assertThat(Files.readString(dir.resolve("motd"))).isEqualTo("hello\n");
        assertThat(mode("motd")).isEqualTo("rw-r-----");
    }

    @Test
    void noopReportsDiffAndModeChangeWithoutTouchingTheFile() throws Exception {
        Files.writeString(dir.resolve("conf"), "a\nold\nc\n");
        Files.setPosixFilePermissions(dir.resolve("conf"), PosixFilePermissions.fromString("rw-------"));
        Report plan = m().plan("""
                resources:
                  - file: [{ROOT/conf: {content: "a\\nnew\\nc\\n", mode: "0644"}}]
                """);
        ResourceReport r = resource(plan, id("conf"));
        assertThat(r.status()).isEqualTo(Status.CHANGED);
        assertThat(r.changes()).anySatisfy(c -> assertThat(c.diff()).contains("-old\n+new\n").startsWith("--- a" + dir.resolve("conf")));
        assertThat(r.changes()).anySatisfy(c -> assertThat(c.describe()).isEqualTo("mode 0600 -> 0644"));
        assertThat(Files.readString(dir.resolve("conf"))).isEqualTo("a\nold\nc\n");
        assertThat(mode("conf")).isEqualTo("rw-------");
    }

    @Test
    void aSymbolicModeChangesTheClassesItNamesAndKeepsTheOthersAsFound() throws Exception {
        Files.writeString(dir.resolve("script"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(dir.resolve("script"), PosixFilePermissions.fromString("rw-rw-rw-"));
        String yaml = """
                resources:
                  - file: [{ROOT/script: {mode: "u+x,go-w"}}]
                  - file: [{ROOT/fresh: {content: "x", mode: "u=rw,g=r,o="}}]
                  - file: [{ROOT/dir: {ensure: directory, mode: "g=rwxs"}}]
                """;
        Report plan = m().plan(yaml);
        assertThat(resource(plan, id("script")).changes()).anySatisfy(c -> assertThat(c.describe()).isEqualTo("mode 0666 -> 0744"));
        assertThat(mode("script")).as("noop").isEqualTo("rw-rw-rw-");
        m().apply(yaml);
        assertThat(mode("script")).isEqualTo("rwxr--r--");
        assertThat(mode("fresh")).as("made 0644, then set").isEqualTo("rw-r-----");
        assertThat(mode("dir")).as("made 0755, then g set").isEqualTo("rwxrwsr-x".replace('s', 'x'));
        assertThat((int) Files.getAttribute(dir.resolve("dir"), "unix:mode") & 07777).isEqualTo(02775);
        assertThat(m().apply(yaml).count(Status.STABLE)).isEqualTo(3);

        Files.setPosixFilePermissions(dir.resolve("script"), PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThat(resource(m().apply(yaml), id("script")).changedAttributes()).containsExactly("mode");
        assertThat(mode("script")).isEqualTo("rwxr--r--");
    }

    @Test
    void capitalXSearchesDirectoriesAndExecutesOnlyWhatSomeoneMayAlreadyExecute() throws Exception {
        Files.writeString(dir.resolve("tool"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(dir.resolve("tool"), PosixFilePermissions.fromString("rwx------"));
        Files.writeString(dir.resolve("notes"), "n\n");
        Files.setPosixFilePermissions(dir.resolve("notes"), PosixFilePermissions.fromString("rw-------"));
        m().apply("""
                resources:
                  - file: [{ROOT/tool: {mode: "u=rwX,go=rX"}}, {ROOT/notes: {mode: "u=rwX,go=rX"}}, {ROOT/d: {ensure: directory, mode: "u=rwX,go=rX"}}]
                """);
        assertThat(mode("tool")).isEqualTo("rwxr-xr-x");
        assertThat(mode("notes")).isEqualTo("rw-r--r--");
        assertThat(mode("d")).isEqualTo("rwxr-xr-x");
    }

    @Test
    void aSymbolicModeThatIsNotChmodsIsAnErrorNamingWhy() {
        assertThatThrownBy(() -> m().compile("resources:\n  - file: [{ROOT/f: {mode: \"u=rw,u+x\"}}]\n"))
                .hasMessageContaining("expected an octal mode like \"0644\" or a symbolic one like \"u=rwx,go=rx\", got 'u=rw,u+x' (a class is named twice; name each class once)");
        assertThatThrownBy(() -> m().compile("resources:\n  - file: [{ROOT/f: {mode: \"a=rY\"}}]\n"))
                .hasMessageContaining("got 'a=rY' (the permissions after =, + or - are some of r, w, x, X, s, t)");
        assertThatThrownBy(() -> m().compile("resources:\n  - file: [{ROOT/f: {mode: \"rwsr-x---\"}}]\n"))
                .hasMessageContaining("got 'rwsr-x---' (permissions as ls lists them: write them as \"4750\")");
        assertThatThrownBy(() -> m().compile("resources:\n  - file: [{ROOT/f: {mode: \"rw\"}}]\n"))
                .hasMessageContaining("got 'rw' (a clause needs one of =, +, -)");
    }

    @Test
    void aDirectoryWithParentsMakesTheMissingDirectoriesAboveItAndPlanForeseesNoFailure() throws Exception {
        String yaml = """
                resources:
                  - file: [{ROOT/a/b/c: {ensure: directory, mode: "0750", parents: true}}]
                """;
        assertThat(m().plan(yaml).count(io.muster.engine.report.Status.WOULD_FAIL)).isZero();
        assertThat(dir.resolve("a")).doesNotExist();
        m().apply(yaml);
        assertThat(mode("a")).isEqualTo("rwxr-x---");
        assertThat(mode("a/b")).isEqualTo("rwxr-x---");
        assertThat(mode("a/b/c")).isEqualTo("rwxr-x---");
        assertThat(m().apply(yaml).count(io.muster.engine.report.Status.STABLE)).isEqualTo(1);
        assertThatThrownBy(() -> m().compile("resources:\n  - file: [{ROOT/f: {content: x, parents: true}}]\n"))
                .hasMessageContaining("parents requires ensure: directory");
    }

    @Test
    void sensitiveContentIsNeverShownInDiffs() throws Exception {
        ResourceReport r = resource(m().plan("""
                resources:
                  - file: [{ROOT/secret: {content: "hunter2", sensitive: true}}]
                """), id("secret"));
        assertThat(r.changes()).allSatisfy(c -> assertThat(String.valueOf(c.diff())).doesNotContain("hunter2"));
    }

    @Test
    void sourceIsRelativeToTheManifest() throws Exception {
        m().write("files/banner.txt", "from source\n");
        m().apply("""
                resources:
                  - file: [{ROOT/banner: {source: files/banner.txt}}]
                """);
        assertThat(Files.readString(dir.resolve("banner"))).isEqualTo("from source\n");
    }

    @Test
    void directoriesAbsenceAndForce() throws Exception {
        Files.createDirectories(dir.resolve("was-dir/sub"));
        Files.writeString(dir.resolve("gone"), "x");
        Report report = m().apply("""
                resources:
                  - file:
                      - ROOT/d: {ensure: directory, mode: "0750"}
                      - ROOT/d/inner: {content: "x"}
                      - ROOT/gone: {ensure: absent}
                      - ROOT/was-dir: {content: "now a file", force: true}
                """);
        assertThat(report.count(Status.FAILED)).isZero();
        assertThat(Files.isDirectory(dir.resolve("d"))).isTrue();
        assertThat(mode("d")).isEqualTo("rwxr-x---");
        assertThat(dir.resolve("gone")).doesNotExist();
        assertThat(Files.readString(dir.resolve("was-dir"))).isEqualTo("now a file");
    }

    @Test
    void refusesToReplaceADirectoryWithoutForceAndExplainsAMissingParent() throws Exception {
        Files.createDirectories(dir.resolve("keep"));
        Report report = m().apply("""
                resources:
                  - file:
                      - ROOT/keep: {content: "x"}
                      - ROOT/missing/child: {content: "x"}
                """);
        assertThat(resource(report, id("keep")).error()).isEqualTo(dir.resolve("keep") + " is a directory; set force: true to replace it with a file");
        assertThat(resource(report, id("missing/child")).error()).startsWith("parent directory " + dir.resolve("missing") + " does not exist");
        assertThat(Files.isDirectory(dir.resolve("keep"))).isTrue();
    }

    @Test
    void absentRemovesAnEmptyDirectoryButADirectoryWithContentOnlyWithForce() throws Exception {
        Files.createDirectories(dir.resolve("empty"));
        Files.createDirectories(dir.resolve("full"));
        Files.writeString(dir.resolve("full/data"), "kept");
        Report report = m().apply("""
                resources:
                  - file:
                      - ROOT/empty: {ensure: absent}
                      - ROOT/full: {ensure: absent}
                """);
        assertThat(dir.resolve("empty")).doesNotExist();
        assertThat(resource(report, id("full")).error())
                .isEqualTo(dir.resolve("full") + " is a directory that is not empty; set force: true to remove it with its content");
        assertThat(dir.resolve("full/data")).hasContent("kept");
    }

    @Test
    void replacingContentKeepsTheExistingModeAndLeavesNoTempFiles() throws Exception {
        Files.writeString(dir.resolve("keepmode"), "old");
        Files.setPosixFilePermissions(dir.resolve("keepmode"), PosixFilePermissions.fromString("rwx------"));
        m().apply("""
                resources:
                  - file: [{ROOT/keepmode: {content: "new"}}]
                """);
        assertThat(mode("keepmode")).isEqualTo("rwx------");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".muster-"));
        }
    }

    @Test
    void ownerAndGroupByNameOrNumber() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "changing owners needs root");
        Files.writeString(dir.resolve("owned"), "x");
        String yaml = """
                resources:
                  - file:
                      - ROOT/owned: {owner: nobody, group: "65534"}
                """;
        ResourceReport r = resource(m().apply(yaml), id("owned"));
        assertThat(r.changedAttributes()).containsExactly("owner", "group");
        assertThat(Files.getOwner(dir.resolve("owned")).getName()).isEqualTo("nobody");
        assertThat((int) Files.getAttribute(dir.resolve("owned"), "unix:gid")).isEqualTo(65534);
        assertThat(resource(m().apply(yaml), id("owned")).status()).isEqualTo(Status.STABLE);
        m().apply("""
                resources:
                  - file: [{ROOT/owned: {content: "new"}}]
                """);
        assertThat(Files.getOwner(dir.resolve("owned")).getName()).as("content replaced, owner kept").isEqualTo("nobody");
    }

    @Test
    void aFileComesAfterItsOwnerAndGroupWhenTheyAreManaged() {
        FileResource file = new FileResource(dir.resolve("a/b"), FileResource.Ensure.PRESENT, "x", null, "alice", "staff", null,
                false, false, null, false, false, true, false);
        assertThat(file.wants()).containsExactly(java.util.List.of("path:" + dir.resolve("a"), "path:" + dir, "path:" + dir.getParent(),
                "path:/"), java.util.List.of("user:alice"), java.util.List.of("group:staff"));
    }
}
