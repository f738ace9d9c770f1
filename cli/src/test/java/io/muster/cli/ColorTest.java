package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Status words and diffs in colour on a terminal; plain in a pipe or a file, with NO_COLOR, or with --color=never. */
class ColorTest {
    private static final String ESC = "\u001b[";

    @TempDir
    Path dir;

    private Path site;

    @BeforeEach
    void site() throws Exception {
        Files.writeString(dir.resolve("conf"), "keep\nold\n");
        site = new Manifests(dir).write("site.yaml", """
                resources:
                  - file: [{ROOT/conf: {content: "keep\\nnew\\n"}}]
                  - exec: [{broken: {command: "false"}}]
                """);
    }

    @Test
    void alwaysColoursStatusWordsAndDiffLines() {
        Cli plan = Cli.run("plan", site, "--tmp-prefix", "--color=always");
        assertThat(plan.exit()).isEqualTo(2);
        assertThat(plan.out()).contains("file#" + dir + "/conf " + ESC + "33mchanged" + ESC + "0m content")
                .contains(ESC + "1m--- a" + dir + "/conf" + ESC + "0m\n" + ESC + "1m+++ b" + dir + "/conf" + ESC + "0m\n")
                .contains(ESC + "36m@@ -1,2 +1,2 @@" + ESC + "0m\n keep\n" + ESC + "31m-old" + ESC + "0m\n" + ESC + "32m+new" + ESC + "0m\n");
        Cli apply = Cli.run("apply", site, "--tmp-prefix", "--color=always");
        assertThat(apply.out()).contains("exec#broken " + ESC + "31mfailed" + ESC + "0m ");
    }

    @Test
    void healthCheckOutcomesAreColouredToo() {
        Path checked = new Manifests(dir).write("checked.yaml", """
                resources:
                  - noop:
                      - up: {health_checks: [{name: fine, command: "true"}]}
                      - down: {health_checks: [{name: down, command: "exit 2"}]}
                """);
        assertThat(Cli.run("check", checked, "--tmp-prefix", "--color=always").out())
                .contains("noop#up health check 'fine' " + ESC + "32mok" + ESC + "0m\n", "noop#down health check 'down' " + ESC + "31mcritical" + ESC + "0m\n");
    }

    @Test
    void neverAndOutputThatIsNotATerminalArePlain() throws Exception {
        assertThat(Cli.run("plan", site, "--tmp-prefix", "--color=never").out()).doesNotContain(ESC).contains("-old\n+new\n");
        try (MusterProcess piped = MusterProcess.start(dir, "piped", "plan", site, "--tmp-prefix")) {
            assertThat(piped.awaitExit(Duration.ofSeconds(60))).isEqualTo(2);
            assertThat(piped.out()).contains("changed content").doesNotContain(ESC);
        }
    }

    @Test
    void aTerminalGetsColourUnlessNoColorIsSet() throws Exception {
        assertThat(onATerminal(Map.of(), "plan", site, "--tmp-prefix")).contains(ESC + "33mchanged" + ESC + "0m", ESC + "31m-old");
        assertThat(onATerminal(Map.of("NO_COLOR", "1"), "plan", site, "--tmp-prefix")).contains("changed content").doesNotContain(ESC);
        assertThat(onATerminal(Map.of("NO_COLOR", ""), "plan", site, "--tmp-prefix")).as("an empty NO_COLOR counts as unset").contains(ESC);
        assertThat(onATerminal(Map.of("NO_COLOR", "1"), "plan", site, "--tmp-prefix", "--color=always")).as("the flag wins").contains(ESC);
    }

    /** What muster prints with a terminal as its standard output. */
    private String onATerminal(Map<String, String> environment, Object... args) throws Exception {
        Pty pty = Pty.run(dir, environment, args);
        assertThat(pty.exit()).as(pty.out()).isEqualTo(2);
        return pty.out();
    }
}
