package io.muster.engine.resource.line;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code line}, on real files. */
class LineResourceTest {
    @TempDir
    Path dir;
    private Path conf;

    @BeforeEach
    void file() throws Exception {
        conf = Files.writeString(dir.resolve("sshd_config"), "Port 22\n#PermitRootLogin yes\nUsePAM yes\n");
        Files.setPosixFilePermissions(conf, PosixFilePermissions.fromString("rw-------"));
    }

    private ResourceReport apply(String properties) throws Exception {
        return resource(new Manifests(dir).apply("""
                resources:
                  - line: [{l: {path: ROOT/sshd_config, %s}}]
                """.formatted(properties)), "line#l");
    }

    @Test
    void addsTheLineAtTheEndOnceKeepingTheFilesMode() throws Exception {
        assertThat(apply("line: \"X11Forwarding no\"").status()).isEqualTo(Status.CHANGED);
        assertThat(conf).hasContent("Port 22\n#PermitRootLogin yes\nUsePAM yes\nX11Forwarding no\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(conf))).isEqualTo("rw-------");
        assertThat(apply("line: \"X11Forwarding no\"").status()).isEqualTo(Status.STABLE);
    }

    @Test
    void replacesTheLineMatchReturnsAndPlacesOneAfterAnother() throws Exception {
        apply("line: \"PermitRootLogin no\", match: \"^#?PermitRootLogin\"");
        assertThat(conf).hasContent("Port 22\nPermitRootLogin no\nUsePAM yes\n");
        assertThat(apply("line: \"PermitRootLogin no\", match: \"^#?PermitRootLogin\"").status()).isEqualTo(Status.STABLE);
        apply("line: \"Port 2222\", after: \"^Port \"");
        assertThat(conf).hasContent("Port 22\nPort 2222\nPermitRootLogin no\nUsePAM yes\n");
    }

    @Test
    void severalMatchesAreAnErrorUnlessMultiple() throws Exception {
        Files.writeString(conf, "a=1\nb=2\na=3\n");
        assertThat(apply("line: a=9, match: \"^a=\"").error())
                .isEqualTo("match /^a=/ matches 2 lines of " + conf + " (lines 1, 3); set multiple: true to change them all");
        assertThat(conf).hasContent("a=1\nb=2\na=3\n");
        apply("line: a=9, match: \"^a=\", multiple: true");
        assertThat(conf).hasContent("a=9\nb=2\na=9\n");
    }

    @Test
    void absentRemovesTheLineOrWhatMatches() throws Exception {
        Files.writeString(conf, "keep\ndrop\nkeep\ndrop");
        apply("line: drop, ensure: absent");
        assertThat(conf).hasContent("keep\nkeep\n");
        apply("ensure: absent, match: \"^k\", multiple: true");
        assertThat(Files.readString(conf)).isEmpty();
        assertThat(apply("line: drop, ensure: absent").status()).isEqualTo(Status.STABLE);
    }

    @Test
    void noopShowsTheDiffAndWritesNothing() throws Exception {
        ResourceReport plan = resource(new Manifests(dir).plan("""
                resources:
                  - line: [{l: {path: ROOT/sshd_config, line: "PermitRootLogin no", match: "^#?PermitRootLogin"}}]
                """), "line#l");
        assertThat(plan.changes().getFirst().diff()).contains("-#PermitRootLogin yes\n+PermitRootLogin no\n");
        assertThat(conf).hasContent("Port 22\n#PermitRootLogin yes\nUsePAM yes\n");
    }

    @Test
    void aMissingFileIsMadeAndSharesItsPathWithTheFileResourceThatComesFirst() throws Exception {
        Report report = new Manifests(dir).apply("""
                resources:
                  - line: [{l: {path: ROOT/conf.d/new, line: "x=1"}}]
                  - file:
                      - ROOT/conf.d: {ensure: directory}
                      - ROOT/conf.d/new: {mode: "0640"}
                """);
        assertThat(resource(report, "line#l").status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("conf.d/new")).hasContent("x=1");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("conf.d/new")))).isEqualTo("rw-r-----");
    }

    @Test
    void badPropertiesAreCompileErrors() {
        assertThatThrownBy(() -> new Manifests(dir).compile("""
                resources:
                  - line: [{l: {path: ROOT/x, line: a, match: "(["}}]
                """)).isInstanceOf(ManifestException.class).hasMessageContaining("match: not a regular expression");
        assertThatThrownBy(() -> new Manifests(dir).compile("""
                resources:
                  - line: [{l: {path: ROOT/x}}]
                """)).isInstanceOf(ManifestException.class).hasMessageContaining("ensure: present requires a line");
    }
}
