package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A resource that runs for more than a couple of seconds says so: on a terminal a live line with its elapsed time,
 * redrawn in place and cleared before the report goes on; in a pipe a plain line every 10 s; with -q nothing.
 * And --debug prints where a failure came from.
 */
class ProgressTest {
    private static final String CLEAR_LINE = "\r\u001b[K";

    @TempDir
    Path dir;

    @Test
    void aTerminalShowsALiveLineWithTheElapsedTimeClearedBeforeTheReport() throws Exception {
        Path site = manifest("exec: [{slow: {command: \"sleep 4\"}}]");

        Pty pty = Pty.run(dir, Map.of(), "apply", site, "--tmp-prefix", "--color=never");

        assertThat(pty.exit()).as(pty.out()).isZero();
        assertThat(pty.out()).contains(CLEAR_LINE + "running: exec#slow 2 s", CLEAR_LINE + "running: exec#slow 3 s")
                .containsPattern("\r\u001b\\[Kexec#slow changed executed \\d+ms\n")
                .doesNotContain("still running");
    }

    @Test
    void quietShowsNoProgress() throws Exception {
        Path site = manifest("exec: [{slow: {command: \"sleep 3\"}}]");

        Pty pty = Pty.run(dir, Map.of(), "apply", site, "--tmp-prefix", "-q");

        assertThat(pty.exit()).isZero();
        assertThat(pty.out()).isEmpty();
    }

    @Test
    void aPipeGetsAPlainLineEveryTenSeconds() throws Exception {
        Path site = manifest("exec: [{slow: {command: \"sleep 11\"}}, {quick: {command: \"sleep 3\"}}]");

        try (MusterProcess muster = MusterProcess.start(dir, "piped", "apply", site, "--tmp-prefix")) {
            assertThat(muster.awaitExit(Duration.ofSeconds(60))).isZero();
            assertThat(muster.err()).isEqualTo("still running: exec#slow (10 s)\n");
            assertThat(muster.out()).doesNotContain("running").containsPattern("(?m)^exec#slow changed executed \\d+ms$");
        }
    }

    @Test
    void debugPrintsWhereAFailureCameFrom() throws Exception {
        Path site = manifest("exec: [{broken: {command: \"nosuch-program\"}}]");

        try (MusterProcess plain = MusterProcess.start(dir, "plain", "apply", site, "--tmp-prefix");
             MusterProcess debug = MusterProcess.start(dir, "debug", "apply", site, "--tmp-prefix", "--debug")) {
            assertThat(plain.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(debug.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(plain.out()).contains("exec#broken failed", "cannot run 'nosuch-program': not found in PATH");
            assertThat(plain.err()).doesNotContain("\tat ");
            assertThat(debug.err()).contains("java.io.IOException: cannot run 'nosuch-program'", "\tat io.muster.engine.process.ProcessRunner");
        }
    }

    private Path manifest(String resource) {
        return new Manifests(dir).write("site.yaml", "resources:\n  - " + resource + "\n");
    }
}
