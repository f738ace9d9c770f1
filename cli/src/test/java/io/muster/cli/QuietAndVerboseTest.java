package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -q} says only what failed; {@code -v} lists every resource. */
class QuietAndVerboseTest {
    @TempDir
    Path dir;

    private Path manifest(String yaml) {
        return new Manifests(dir).write("site.yaml", yaml);
    }

    @Test
    void quietPrintsOnlyFailuresAndNoSummary() {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                  - exec:
                      - fail: {command: "false"}
                      - after-fail: {command: "true", require: exec#fail}
                """);
        Cli quiet = Cli.run("apply", site, "--tmp-prefix", "-q");
        assertThat(quiet.exit()).as("the exit code still tells").isEqualTo(1);
        assertThat(quiet.out()).matches("exec#fail failed \\d+ms: 'false' exited with 1 \\(expected 0\\)\n");
        assertThat(dir.resolve("a")).as("it still did the work").hasContent("a");

        Path fine = manifest("resources: [{file: [{ROOT/b: {content: \"b\\n\"}}]}]\n");
        Cli silent = Cli.run("apply", fine, "--tmp-prefix", "--quiet", "--detailed-exitcodes");
        assertThat(silent.exit()).isEqualTo(2);
        assertThat(silent.out()).isEmpty();
    }

    @Test
    void verboseListsStableResourcesToo() {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}, {ROOT/b: {content: "b\\n"}}]
                """);
        Cli.run("apply", site, "--tmp-prefix");
        Cli verbose = Cli.run("apply", site, "--tmp-prefix", "-v");
        assertThat(verbose.out()).contains("file#" + dir + "/a stable\n", "file#" + dir + "/b stable\n", "changed 0, stable 2, failed 0");
        assertThat(Cli.run("apply", site, "--tmp-prefix").out()).as("not without -v").doesNotContain(" stable\n");
    }

    @Test
    void quietAndVerboseTogetherIsAUsageError() {
        Cli both = Cli.run("plan", manifest("resources: []\n"), "-q", "-v");
        assertThat(both.exit()).isEqualTo(64);
        assertThat(both.err()).contains("mutually exclusive");
    }

    @Test
    void quietLogsOnlyWarningsAndErrors() throws Exception {
        Path site = manifest("""
                resources:
                  - msg:
                      - said: {message: "an info line"}
                      - warned: {message: "a warning", level: warn}
                """);
        try (MusterProcess loud = MusterProcess.start(dir, "loud", "apply", site, "--tmp-prefix")) {
            assertThat(loud.awaitExit(Duration.ofSeconds(60))).isZero();
            assertThat(loud.err()).contains("an info line", "a warning");
        }
        try (MusterProcess quiet = MusterProcess.start(dir, "quiet", "apply", site, "--tmp-prefix", "-q")) {
            assertThat(quiet.awaitExit(Duration.ofSeconds(60))).isZero();
            assertThat(quiet.err()).contains("a warning").doesNotContain("an info line");
            assertThat(quiet.out()).isEmpty();
        }
    }
}
