package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import io.muster.engine.testing.ProcessTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exec as the review attacked it, with muster in a JVM of its own: what a command as another user sees of
 * muster's environment, a watchcmd that never ends its line, and what {@code --debug} prints of secrets.
 */
class ExecHardeningTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String SECRET = "s3cr3t-hunter2";

    @TempDir
    Path dir;

    private Path manifest(String yaml) {
        return new Manifests(dir).write("site.yaml", yaml.replace("SECRET", SECRET));
    }

    @Test
    void aCommandAsAnotherUserSeesNoneOfMustersEnvironment() throws Exception {
        Path site = manifest("""
                resources:
                  - exec: [{env: {command: env, user: nobody}}]
                  - file: [{ROOT/env: {content: "${ lookup('exec#env.stdout') }\\n"}}]
                """);
        try (MusterProcess muster = MusterProcess.start(dir, "apply", Map.of("MUSTER_TEST_SECRET", SECRET), "apply", site, "--tmp-prefix")) {
            assertThat(muster.awaitExit(PATIENCE)).as(muster.out() + muster.err()).isZero();
        }

        assertThat(Files.readString(dir.resolve("env")))
                .contains("HOME=/nonexistent\n", "USER=nobody\n")
                .doesNotContain(SECRET, "HOME=/root", "MUSTER_TEST_SECRET", "JAVA_HOME");
    }

    /**
     * The first SIGTERM lets the command finish; a second stops at once and kills the command and what it
     * left in its group, re-parented children included.
     */
    @Test
    void aForcedStopOfApplyLeavesNoCommandBehind() throws Exception {
        String marker = "100." + ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
        Path site = manifest("""
                resources:
                  - exec: [{slow: {command: "(sleep MARK &); sleep MARK", shell: true}}]
                """.replace("MARK", marker));
        try (MusterProcess muster = MusterProcess.start(dir, "apply", "apply", site, "--tmp-prefix")) {
            Awaitility.await().atMost(PATIENCE).until(() -> ProcessTable.running("sleep", marker).size() == 2);

            muster.terminate();
            Awaitility.await().atMost(PATIENCE).until(() -> muster.err().contains("send it again to exit at once"));
            muster.terminate();

            assertThat(muster.awaitExit(PATIENCE)).isEqualTo(143);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ProcessTable.running("sleep", marker).isEmpty());
        } finally {
            ProcessTable.running("sleep", marker).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * 256 MiB without a newline: the 100 MiB of the review, made larger than the muster JVM's heap (256 MiB)
     * so that keeping the line cannot pass. Then one newline: one event, one more run of the command.
     */
    @Test
    void aWatchcmdLineWithoutEndCostsNoMemory() throws Exception {
        Path site = manifest("""
                resources:
                  - exec:
                      - watched:
                          command: "echo run >> ROOT/runs"
                          watchcmd: "head -c 268435456 /dev/zero; echo; exec sleep 600"
                          shell: true
                """);
        try (MusterProcess muster = MusterProcess.start(dir, "run", "run", site, "--tmp-prefix")) {
            Awaitility.await().atMost(PATIENCE).until(() -> Files.exists(dir.resolve("runs"))
                    && Files.readAllLines(dir.resolve("runs")).size() >= 2);

            assertThat(muster.isAlive()).isTrue();
            assertThat(muster.err()).doesNotContain("OutOfMemory", "watch failed");
        }
    }

    @Test
    void debugOutputShowsNoSecretOfASensitiveExecOrOfAGuardThatReadsOne() throws Exception {
        Path site = manifest("""
                resources:
                  - file:
                      - ROOT/secret: {content: "SECRET\\n", sensitive: true}
                  - exec:
                      - own: {command: "true", unless: "grep -q SECRET ROOT/nowhere", sensitive: true}
                      - reader: {command: "true", onlyif: "test ${ lookup('file#ROOT/secret.content') } = SECRET"}
                      - failing: {command: "sh -c 'echo SECRET; exit 2'", sensitive: true}
                """);
        try (MusterProcess muster = MusterProcess.start(dir, "apply", "apply", site, "--tmp-prefix", "--debug", "--diff")) {
            assertThat(muster.awaitExit(PATIENCE)).isEqualTo(1);

            assertThat(muster.err()).contains("exec#own: guard the command (sensitive) exited with 2", // grep: no such file
                    "exec#reader: guard the command (sensitive) exited with 0");
            assertThat(muster.out()).contains("the command (sensitive) exited with 2 (expected 0)");
            assertThat(muster.out() + muster.err()).doesNotContain(SECRET);
        }
    }

    @Test
    void errorsOfResourcesThatReadASecretShowItNowhere() throws Exception {
        Path site = manifest("""
                resources:
                  - exec:
                      - secret: {command: "echo SECRET", query: true, sensitive: true}
                      - user: {command: "true", user: "${ lookup('exec#secret.stdout') }"}
                      - cwd: {command: "true", cwd: "/nonexistent/${ lookup('exec#secret.stdout') }"}
                  - file:
                      - ROOT/owner: {content: "x", owner: "${ lookup('exec#secret.stdout') }"}
                """);
        for (String output : new String[] {"text", "json"}) {
            try (MusterProcess muster = MusterProcess.start(dir, "apply-" + output, "apply", site, "--tmp-prefix", "--debug", "--output", output)) {
                assertThat(muster.awaitExit(PATIENCE)).isEqualTo(1);

                assertThat(muster.out()).contains("no such user '(sensitive)'", "user '(sensitive)' does not exist on this host",
                        "its working directory (sensitive) does not exist");
                assertThat(muster.err()).as("--debug's stack traces, redacted too").contains("\tat ");
                assertThat(muster.out() + muster.err()).doesNotContain(SECRET);
            }
        }
    }
}
