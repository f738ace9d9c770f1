package io.muster.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.cli.Cli;
import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mgmt YAML graphs of examples/mgmt, run unchanged through the CLI. mgmt graphs have no templates, so each is
 * applied from a copy whose {@code /tmp/muster-mgmt-example} paths name the test's temp directory instead (and
 * whose source tree is examples/mgmt/files); the first apply converges, the second changes nothing but the execs
 * without guards.
 */
class MgmtExamplesTest {
    private static final Path EXAMPLES = Path.of("mgmt").toAbsolutePath();

    @TempDir
    Path root;

    private Path copy(String name) throws IOException {
        String text = Files.readString(EXAMPLES.resolve(name))
                .replace("/tmp/muster-mgmt-example-source", EXAMPLES.resolve("files").toString())
                .replace("/tmp/muster-mgmt-example", root.toString());
        Path copy = root.resolve("manifests").resolve(name);
        Files.createDirectories(copy.getParent());
        return Files.writeString(copy, text);
    }

    @SuppressWarnings("unchecked") // a JSON object
    private static Map<String, Object> summary(Cli run) {
        return (Map<String, Object>) Manifests.json(run.out()).get("summary");
    }

    private static Cli apply(Path manifest) {
        return Cli.run("apply", manifest, "--tmp-prefix", "--output", "json", "--detailed-exitcodes");
    }

    @Test
    void webrootCopiesTheSiteWritesTheConfigurationAndChecksIt() throws IOException {
        Path graph = copy("webroot.yaml");
        assertThat(Cli.run("validate", graph).exit()).isZero();

        Cli first = apply(graph);

        assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(2);
        assertThat(summary(first)).containsEntry("failed", 0).containsEntry("refreshed", 0);
        assertThat(root.resolve("www/index.html")).hasSameTextualContentAs(EXAMPLES.resolve("files/site/index.html"));
        assertThat(root.resolve("www/css/main.css")).hasSameTextualContentAs(EXAMPLES.resolve("files/site/css/main.css"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("server.conf")))).isEqualTo("rw-r-----");
        assertThat(first.out()).contains("server configuration changed");

        Cli second = apply(graph);
        assertThat(summary(second)).as(second.out()).containsEntry("changed", 1).containsEntry("failed", 0);
    }

    @Test
    void stagesNeverGoBackAndMarkTheStageReached() throws IOException {
        Cli run = apply(copy("stages.yaml"));
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(summary(run)).containsEntry("failed", 0).containsEntry("changed", 3);
        assertThat(root.resolve("stage-done")).hasContent("stage 2 reached");
    }

    @Test
    void heartbeatBeatsOnceOnApply() throws IOException {
        Cli run = apply(copy("heartbeat.yaml"));
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(Files.readAllLines(root.resolve("heartbeat"))).hasSize(1);
    }
}
