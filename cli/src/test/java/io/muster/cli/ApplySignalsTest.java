package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM and SIGINT sent to {@code muster apply} (a JVM of its own) while a command runs: the first starts
 * nothing more, lets what runs finish, reports the rest skipped, prints the summary and exits 143 or 130;
 * a second kills the commands and exits at once. Either way no command is left running.
 */
class ApplySignalsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String STOPPED = "muster was stopped (SIGTERM) before it ran";

    @TempDir
    Path dir;

    @RegisterExtension
    final MusterProcesses processes = new MusterProcesses();

    /** A command that runs a while, and two resources after it. */
    private Path site() {
        return new Manifests(dir).write("site.yaml", """
                resources:
                  - exec:
                      - slow: {command: "touch ROOT/started; sleep 1.5; touch ROOT/finished", shell: true}
                      - later: {command: "touch ROOT/later", require: exec#slow}
                  - file:
                      - ROOT/after: {content: x, require: exec#later}
                """);
    }

    @Test
    void sigtermLetsTheRunningCommandFinishSkipsTheRestAndExits143WithTheSummary() throws Exception {
        MusterProcess muster = apply(site());
        eventually().until(() -> Files.exists(dir.resolve("started")));

        muster.terminate();

        assertThat(muster.awaitExit(PATIENCE)).isEqualTo(143);
        assertThat(dir.resolve("finished")).as("the command under way finished").exists();
        assertThat(dir.resolve("later")).doesNotExist();
        assertThat(dir.resolve("after")).doesNotExist();
        assertThat(muster.out())
                .containsPattern("(?m)^exec#slow changed executed \\d+ms$")
                .contains("exec#later skipped: " + STOPPED + "\n", "file#" + dir + "/after skipped: " + STOPPED + "\n")
                .containsPattern("(?m)^apply on \\S+: 3 resources in \\d+ms$")
                .contains("  changed 1, stable 0, failed 0, skipped 2, unresolvable 0, refreshed 0\n");
        assertThat(muster.err()).contains("muster: stopping (SIGTERM); send it again to exit at once");
        assertThat(muster.leftovers()).isEmpty();
    }

    @Test
    void sigtermDuringAHealthChecksTriesEndsItAtOnceReportingWhy() throws Exception {
        Path site = new Manifests(dir).write("health.yaml", """
                resources:
                  - exec:
                      - web:
                          command: "true"
                          health_checks: [{name: up, command: "echo tried >> ROOT/tries; echo down; exit 2", tries: 5, try_sleep: 600}]
                """);
        MusterProcess muster = apply(site);
        eventually().until(() -> Files.exists(dir.resolve("tries")));

        muster.terminate(); // during the sleep before try 2

        assertThat(muster.awaitExit(Duration.ofSeconds(10))).as("no further try, no sleep").isEqualTo(143);
        assertThat(Files.readAllLines(dir.resolve("tries"))).containsExactly("tried");
        assertThat(muster.out())
                .contains("health check 'up' critical: down; muster was stopped (SIGTERM) before try 2")
                .containsPattern("(?m)^apply on \\S+: 1 resources in \\d+ms$");
        assertThat(muster.leftovers()).isEmpty();
    }

    @Test
    void sigintWithJsonOutputExits130AndReportsTheSkippedResources() throws Exception {
        MusterProcess muster = apply(site(), "--output", "json");
        eventually().until(() -> Files.exists(dir.resolve("started")));

        muster.interrupt();

        assertThat(muster.awaitExit(PATIENCE)).isEqualTo(130);
        Map<String, Object> doc = Manifests.json(muster.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> summary = (Map<String, Object>) doc.get("summary");
        assertThat(summary).containsEntry("changed", 1).containsEntry("skipped", 2);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> resources = (List<Map<String, Object>>) doc.get("resources");
        assertThat(resources).filteredOn(r -> r.get("id").equals("exec#later")).singleElement()
                .satisfies(r -> assertThat(r).containsEntry("status", "skipped").containsEntry("message", "muster was stopped (SIGINT) before it ran"));
    }

    @Test
    void aSecondSignalKillsTheRunningCommandAndExitsAtOnce() throws Exception {
        Path site = new Manifests(dir).write("long.yaml", """
                resources:
                  - exec: [{long: {command: "touch ROOT/started; sleep 300", shell: true}}]
                """);
        MusterProcess muster = apply(site);
        eventually().until(() -> Files.exists(dir.resolve("started")));
        assertThat(muster.leftovers()).isNotEmpty();

        muster.terminate();
        eventually().until(() -> muster.err().contains("muster: stopping (SIGTERM)"));
        muster.terminate();

        assertThat(muster.awaitExit(Duration.ofSeconds(10))).isEqualTo(143);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> muster.leftovers().isEmpty());
    }

    @Test
    void aStopLeavesEveryFileWholeOrUntouchedAndNoTempFile() throws Exception {
        byte[] content = "x".repeat(512 * 1024).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        MusterProcess muster = copies(content, 100, 2);
        Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(5)).until(() -> Files.exists(dir.resolve("out/f0")));

        muster.terminate();

        int exit = muster.awaitExit(PATIENCE);
        assertEveryCopyWholeAndNoTempFile(content);
        // it stops part of the way; should the apply win the race, it finished and exited 0
        assertThat(exit).isIn(0, 143);
        if (exit == 143) assertThat(muster.out()).contains("skipped: " + STOPPED);
    }

    @Test
    void aForcedStopWhileFilesAreWrittenLeavesNoTempFile() throws Exception {
        byte[] content = "x".repeat(48 << 20).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        MusterProcess muster = copies(content, 8, 8);
        Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(1)).until(() -> tempFiles(dir.resolve("out")) > 0);

        muster.terminate(); // the writes under way go on
        Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(1)).until(() -> muster.err().contains("muster: stopping (SIGTERM)"));
        muster.terminate();

        int exit = muster.awaitExit(PATIENCE);
        assertEveryCopyWholeAndNoTempFile(content);
        assertThat(exit).as("stopped at once, unless the apply won the race").isIn(0, 143);
    }

    /** An apply of {@code count} files {@code out/fN} copied from one source of {@code content}. */
    private MusterProcess copies(byte[] content, int count, int sema) throws IOException {
        Files.write(dir.resolve("source"), content);
        Files.createDirectories(dir.resolve("out"));
        StringBuilder yaml = new StringBuilder("resources:\n  - file:\n");
        for (int i = 0; i < count; i++) yaml.append("      - ROOT/out/f").append(i).append(": {source: ROOT/source}\n");
        return apply(new Manifests(dir).write("many.yaml", yaml.toString()), "--sema", sema);
    }

    private void assertEveryCopyWholeAndNoTempFile(byte[] content) throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("out"))) {
            assertThat(files).allSatisfy(f -> {
                assertThat(f.getFileName().toString()).as("no temp file").matches("f\\d+");
                assertThat(Files.readAllBytes(f)).as("%s is whole", f).isEqualTo(content);
            });
        }
    }

    private static long tempFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().contains(".muster-")).count();
        }
    }

    private MusterProcess apply(Path manifest, Object... options) throws IOException {
        return processes.start(dir, "apply", manifest, options);
    }

    private static ConditionFactory eventually() {
        return Awaitility.await().atMost(PATIENCE);
    }
}
