package io.muster.engine.process;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import io.muster.engine.testing.ProcessTable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commands that leave children behind: a background job re-parented to init ({@code (sleep &)}) must die
 * with its command on a timeout, an interrupt and a forced stop. Each test's sleeps carry a unique
 * duration, so they are found in /proc by their arguments alone.
 */
class ProcessGroupsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    /** {@code sleep 100.<random>}: a process no other test starts. */
    private final String marker = "100." + ThreadLocalRandom.current().nextInt(100_000, 1_000_000);

    @AfterEach
    void killLeftovers() {
        markedProcesses().forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void aTimeoutKillsTheBackgroundJobThatWasReparented() throws Exception {
        Report report = new Manifests(dir).apply("""
                resources:
                  - exec:
                      - slow: {command: "(sleep MARK &); sleep MARK", shell: true, timeout: 1}
                """.replace("MARK", marker));

        assertThat(resource(report, "exec#slow").error()).isEqualTo("'(sleep " + marker + " &); sleep " + marker
                + "' timed out after 1s and was killed");
        await().atMost(PATIENCE).until(() -> markedProcesses().isEmpty());
    }

    @Test
    void anInterruptKillsTheWholeGroup() throws Exception {
        Thread runner = Thread.ofVirtual().start(() -> {
            try {
                shell(Duration.ZERO, "(sleep MARK &); (sleep MARK &); sleep MARK".replace("MARK", marker));
            } catch (IOException | InterruptedException e) {
                // interrupted, as the test wants
            }
        });
        await().atMost(PATIENCE).until(() -> markedProcesses().size() == 3);

        runner.interrupt();

        await().atMost(PATIENCE).until(() -> markedProcesses().isEmpty());
        runner.join(PATIENCE);
    }

    @Test
    void killAllEndsEveryRunningCommandForAForcedStop() throws Exception {
        CompletableFuture<ProcessRunner.Outcome> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                return shell(Duration.ZERO, "(sleep MARK &); sleep MARK".replace("MARK", marker));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(PATIENCE).until(() -> markedProcesses().size() == 2);

        ProcessGroups.killAll();

        await().atMost(PATIENCE).until(() -> markedProcesses().isEmpty());
        assertThat(outcome.get().exitCode()).isEqualTo(137); // the shell, killed by SIGKILL
    }

    @Test
    void outputCaptureDoesNotWaitForABackgroundJobHoldingThePipe() throws Exception {
        long start = System.nanoTime();
        ProcessRunner.Outcome outcome = shell(Duration.ofSeconds(30), "(sleep MARK &); echo done".replace("MARK", marker));

        assertThat(outcome.stdout().text()).isEqualTo("done\n");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PATIENCE);
    }

    @Test
    void commandsLeadAProcessGroupOfTheirOwn() throws Exception {
        ProcessRunner.Outcome outcome = shell(Duration.ZERO, "ps -o pid=,pgid=,sid= -p $$");

        String[] ids = outcome.stdout().text().strip().split("\\s+");
        assertThat(ids[1]).isEqualTo(ids[0]);
        assertThat(ids[2]).isEqualTo(ids[0]);
    }

    private ProcessRunner.Outcome shell(Duration timeout, String command) throws IOException, InterruptedException {
        return ProcessRunner.in(dir, timeout).run(List.of("/bin/sh", "-c", command), "'" + command + "'");
    }

    /** The sleeps of this test (not the shell that started them, whose command line has the marker too). */
    private List<ProcessHandle> markedProcesses() {
        return ProcessTable.running("sleep", marker);
    }
}
