package io.muster.engine.resource.file;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ensure: link}, on real files. */
class FileLinkTest {
    @TempDir
    Path dir;

    private Manifests m() {
        return new Manifests(dir);
    }

    private ResourceReport apply(String target) throws Exception {
        return resource(m().apply("""
                resources:
                  - file: [{ROOT/current: {ensure: link, target: "%s"}}]
                """.formatted(target)), "file#" + dir.resolve("current"));
    }

    @Test
    void makesTheLinkThenLeavesItAloneThenPointsItElsewhere() throws Exception {
        assertThat(apply("releases/1").changes()).extracting(c -> c.describe()).containsExactly("ensure absent -> link");
        assertThat(Files.readSymbolicLink(dir.resolve("current"))).isEqualTo(Path.of("releases/1"));
        assertThat(apply("releases/1").status()).isEqualTo(Status.STABLE);
        assertThat(apply("releases/2").changes()).extracting(c -> c.describe()).containsExactly("target releases/1 -> releases/2");
        assertThat(Files.readSymbolicLink(dir.resolve("current"))).isEqualTo(Path.of("releases/2"));
    }

    @Test
    void noopReportsTheChangeAndLeavesTheFileThere() throws Exception {
        Files.writeString(dir.resolve("current"), "a file");
        ResourceReport r = resource(m().plan("""
                resources:
                  - file: [{ROOT/current: {ensure: link, target: /etc/hostname}}]
                """), "file#" + dir.resolve("current"));
        assertThat(r.changes()).extracting(c -> c.describe()).containsExactly("ensure present -> link");
        assertThat(dir.resolve("current")).hasContent("a file");
    }

    @Test
    void aFileIsReplacedInOneStepAndADirectoryOnlyWithForce() throws Exception {
        Files.writeString(dir.resolve("current"), "a file");
        assertThat(apply("/etc/hostname").status()).isEqualTo(Status.CHANGED);
        assertThat(Files.isSymbolicLink(dir.resolve("current"))).isTrue();
        try (var stream = Files.list(dir)) {
            assertThat(stream.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".muster-"));
        }

        Files.delete(dir.resolve("current"));
        Files.createDirectories(dir.resolve("current/inside"));
        assertThat(apply("/etc/hostname").error()).isEqualTo(dir.resolve("current") + " is a directory; set force: true to replace it with a link");
        ResourceReport forced = resource(m().apply("""
                resources:
                  - file: [{ROOT/current: {ensure: link, target: /etc/hostname, force: true}}]
                """), "file#" + dir.resolve("current"));
        assertThat(forced.status()).isEqualTo(Status.CHANGED);
        assertThat(Files.readSymbolicLink(dir.resolve("current"))).isEqualTo(Path.of("/etc/hostname"));
    }

    @Test
    void aLinkNeedsATargetAndTakesNoContentOrMode() {
        assertThatThrownBy(() -> m().compile("""
                resources:
                  - file: [{ROOT/current: {ensure: link}}]
                """)).isInstanceOf(ManifestException.class).hasMessageContaining("ensure: link requires a target");
        assertThatThrownBy(() -> m().compile("""
                resources:
                  - file: [{ROOT/current: {ensure: link, target: x, mode: "0644"}}]
                """)).isInstanceOf(ManifestException.class).hasMessageContaining("mode does not apply to ensure: link");
        assertThatThrownBy(() -> m().compile("""
                resources:
                  - file: [{ROOT/current: {target: x}}]
                """)).isInstanceOf(ManifestException.class).hasMessageContaining("target requires ensure: link");
    }
}
