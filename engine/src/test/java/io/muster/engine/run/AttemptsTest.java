package io.muster.engine.run;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.engine.graph.Graph;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import io.muster.engine.world.MemoryWorld;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules of {@link Attempts} (retry, delay, limit) and of blocking on failure, in a one-shot and a live
 * run, for checks and watches, on a clock the test moves: a delay of an hour passes when the test says so.
 */
class AttemptsTest {
    @TempDir
    Path dir;

    private final FakeClock clock = new FakeClock();

    @Test
    void aOneShotRunRetriesAfterTheDelayOnly() throws Exception {
        CompletableFuture<Report> report = oneShot("""
                resources:
                  - exec:
                      - flaky: {command: "echo x >> ROOT/attempts; test $(wc -l < ROOT/attempts) -ge 3", shell: true, meta: {retry: 5, delay: 3600000}}
                """);
        awaitAttempts(1);
        clock.advance(59, TimeUnit.MINUTES);
        assertThat(report).isNotDone();
        assertThat(attempts()).isEqualTo(1);
        clock.advance(1, TimeUnit.MINUTES);
        awaitAttempts(2);
        clock.advance(1, TimeUnit.HOURS);
        assertThat(resource(report.get(), "exec#flaky").status()).isEqualTo(Status.CHANGED);
        assertThat(attempts()).isEqualTo(3); // it succeeded: the retries left are not made
    }

    @Test
    void aOneShotRunHonoursTheRateLimitBetweenAttempts() throws Exception {
        CompletableFuture<Report> report = oneShot("""
                resources:
                  - exec:
                      - limited: {command: "echo x >> ROOT/attempts; false", shell: true, meta: {retry: 2, limit: 0.5, burst: 1}}
                """);
        awaitAttempts(1);
        clock.advance(1999, TimeUnit.MILLISECONDS); // one token every 2 s
        assertThat(attempts()).isEqualTo(1);
        clock.advance(1, TimeUnit.MILLISECONDS);
        awaitAttempts(2);
        clock.advance(2, TimeUnit.SECONDS);
        assertThat(resource(report.get(), "exec#limited").status()).isEqualTo(Status.FAILED);
        assertThat(attempts()).isEqualTo(3);
    }

    @Test
    void aLiveRunBlocksDependentsOnlyOnceTheRetriesAreSpent() throws Exception {
        List<ResourceReport> reports = new CopyOnWriteArrayList<>();
        RunOptions options = new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false);
        Graph graph = new Manifests(dir).compile("""
                resources:
                  - exec:
                      - broken: {command: "echo x >> ROOT/attempts; false", shell: true, meta: {retry: 1, delay: 3600000}}
                      - after: {command: "true", require: exec#broken}
                """);
        try (LiveRun live = new LiveRun(options, new MemoryWorld("test"), LiveRun.Quiet.of(0), new Metrics(), reports::add, converged -> {}, clock, Thread.ofVirtual().factory())) {
            live.swap(graph);
            awaitAttempts(1);
            await().until(() -> clock.waiters() > 0); // the retry waits for its delay, its dependent for it
            assertThat(reports).extracting(ResourceReport::id).doesNotContain("exec#after");
            assertThat(live.converged()).isFalse();
            clock.advance(1, TimeUnit.HOURS);
            await().until(() -> reports.stream().anyMatch(r -> r.id().equals("exec#after")));
            ResourceReport after = reports.stream().filter(r -> r.id().equals("exec#after")).findFirst().orElseThrow();
            assertThat(after.status()).isEqualTo(Status.SKIPPED);
            assertThat(after.message()).isEqualTo("dependency exec#broken failed");
            assertThat(attempts()).isEqualTo(2);
            assertThat(reports).filteredOn(r -> r.id().equals("exec#broken")).extracting(ResourceReport::status)
                    .containsExactly(Status.FAILED, Status.FAILED); // each attempt is reported in a live run
        }
    }

    @Test
    void aFailedWatchIsStartedAgainAfterTheDelayOnlyAndFailsTheResourceOnceTheRetriesAreSpent() throws Exception {
        List<ResourceReport> reports = new CopyOnWriteArrayList<>();
        RunOptions options = new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false);
        Graph graph = new Manifests(dir).compile("""
                resources:
                  - exec:
                      - watched: {command: "true", creates: ROOT, watchcmd: "echo x >> ROOT/attempts; exit 3", shell: true,
                                  meta: {retry: 2, delay: 3600000}}
                """);
        try (LiveRun live = new LiveRun(options, new MemoryWorld("test"), LiveRun.Quiet.of(0), new Metrics(), reports::add, converged -> {}, clock, Thread.ofVirtual().factory())) {
            live.swap(graph);
            awaitAttempts(1);
            await().until(() -> watched(live).last() != null);
            assertThat(watched(live).last().status()).as("a watch being retried fails nothing yet").isEqualTo(Status.STABLE);
            clock.advance(59, TimeUnit.MINUTES);
            assertThat(attempts()).isEqualTo(1);
            clock.advance(1, TimeUnit.MINUTES);
            awaitAttempts(2);
            clock.advance(1, TimeUnit.HOURS);
            await().until(() -> watched(live).last().status() == Status.FAILED);
            assertThat(watched(live).last().error()).startsWith("watch failed: ");
            assertThat(watched(live).failures()).as("the first watch and its two retries").isEqualTo(3);
            clock.advance(1, TimeUnit.DAYS);
            assertThat(attempts()).as("its retries spent, the watch is not started again").isEqualTo(3);
        }
    }

    private static ResourceStats watched(LiveRun live) {
        return live.stats().stream().filter(s -> s.id().equals("exec#watched")).findFirst().orElseThrow();
    }

    private CompletableFuture<Report> oneShot(String yaml) throws Exception {
        Graph graph = new Manifests(dir).compile(yaml);
        RunOptions options = new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false);
        OneShotRun run = new OneShotRun(graph, options, new MemoryWorld("test"), r -> {}, clock, Thread.ofVirtual().factory());
        return CompletableFuture.supplyAsync(() -> {
            try {
                return run.run();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
    }

    /** Waits until {@code n} attempts were made and the run waits on the clock for the next (or is done). */
    private void awaitAttempts(int n) {
        await().until(() -> attempts() == n && clock.waiters() > 0);
    }

    private int attempts() throws Exception {
        Path file = dir.resolve("attempts");
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }
}
