package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

import io.muster.engine.graph.Graph;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import io.muster.engine.world.MemoryWorld;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveRunTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final List<ResourceReport> reports = new CopyOnWriteArrayList<>();
    private final List<Boolean> transitions = new CopyOnWriteArrayList<>();
    private LiveRun live;

    @AfterEach
    void stop() throws Exception {
        if (live != null) live.close();
    }

    private Manifests manifests() {
        return new Manifests(dir);
    }

    private LiveRun start(String yaml) throws Exception {
        return start(yaml, 4);
    }

    private LiveRun start(String yaml, int sema) throws Exception {
        Graph graph = manifests().compile(yaml);
        RunOptions options = new RunOptions("testhost", false, sema, dir.resolve(".prefix"), false, false);
        live = new LiveRun(options, 0.2, new Metrics(), reports::add, transitions::add);
        live.swap(graph);
        return live;
    }

    private ResourceStats stats(String id) {
        return live.stats().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
    }

    private static long lines(Path file) throws java.io.IOException {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    /** Swaps in a graph of one new file; the swap must end in time, whatever the old graph still waits for. */
    private void swapInOneNewFile() throws Exception {
        Graph next = manifests().compile("""
                resources:
                  - file: [{ROOT/added: {content: new}}]
                """);
        assertTimeoutPreemptively(PATIENCE, () -> live.swap(next));
        awaitConverged();
        assertThat(dir.resolve("added")).hasContent("new");
    }

    private void awaitConverged() throws InterruptedException {
        assertThat(live.awaitConverged(PATIENCE.toNanos())).as("converged; reports: %s", reports).isTrue();
    }

    @Test
    void aNewGraphsOwnChangesNeedOnlyTheSettlingPeriodWhileADriftEndsConvergence() throws Exception {
        // a quiet period far beyond the test's patience: converging at all shows the settling period sufficed
        RunOptions options = new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false);
        live = new LiveRun(options, new MemoryWorld("testhost"), new LiveRun.Quiet(600, 0.1), new Metrics(), reports::add, transitions::add);
        live.swap(manifests().compile("""
                resources:
                  - file: [{ROOT/motd: {content: "hello\\n"}}]
                """));
        awaitConverged();
        assertThat(dir.resolve("motd")).hasContent("hello");

        Files.writeString(dir.resolve("motd"), "drifted\n");

        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("motd")).equals("hello\n") && !live.converged());
    }

    @Test
    void aDeletedEditedOrChmoddedFileIsRepaired() throws Exception {
        Path file = dir.resolve("motd");
        start("""
                resources:
                  - file: [{ROOT/motd: {content: "hello\\n", mode: "0640"}}]
                """);
        awaitConverged();
        assertThat(file).hasContent("hello");

        Files.delete(file);
        await().atMost(PATIENCE).until(() -> Files.exists(file) && Files.readString(file).equals("hello\n"));

        Files.writeString(file, "tampered\n");
        await().atMost(PATIENCE).until(() -> Files.readString(file).equals("hello\n"));

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrwxrwx"));
        await().atMost(PATIENCE).until(() -> PosixFilePermissions.toString(Files.getPosixFilePermissions(file)).equals("rw-r-----"));

        Path other = dir.resolve("other");
        Files.writeString(other, "x");
        Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        await().atMost(PATIENCE).until(() -> Files.readString(file).equals("hello\n"));
        // counted once the repair's report is in, a moment after its write: awaited, not read at once
        await().atMost(PATIENCE).until(() -> stats("file#" + file).applies() >= 5);
    }

    @Test
    void aFileWhoseDirectoryIsRemovedComesBackWithIt() throws Exception {
        Path sub = dir.resolve("sub");
        start("""
                resources:
                  - file:
                      - ROOT/sub: {ensure: directory}
                      - ROOT/sub/conf: {content: "v1"}
                """);
        awaitConverged();
        Files.move(sub, dir.resolve("moved-away")); // one atomic step: muster cannot refill it halfway
        await().atMost(PATIENCE).until(() -> Files.exists(sub.resolve("conf")));
        assertThat(sub.resolve("conf")).hasContent("v1");
    }

    @Test
    void aDirectoryMovedAwayAndMadeAgainEmptyGetsItsFilesBack() throws Exception {
        Path sub = dir.resolve("sub");
        start("""
                resources:
                  - file:
                      - ROOT/sub: {ensure: directory}
                      - ROOT/sub/conf: {content: "v1"}
                """);
        awaitConverged();
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Files.move(sub, dir.resolve("moved-away"));
        Files.move(empty, sub); // a directory is there again at once: muster has nothing to make
        await().atMost(PATIENCE).until(() -> Files.exists(sub.resolve("conf")));
        assertThat(sub.resolve("conf")).hasContent("v1");
        Files.writeString(sub.resolve("conf"), "tampered");
        await().atMost(PATIENCE).until(() -> Files.readString(sub.resolve("conf")).equals("v1"));
    }

    @Test
    void driftAnywhereInACopiedTreeIsRepaired() throws Exception {
        Path source = Files.createDirectories(dir.resolve("files/a/b"));
        Files.writeString(source.resolve("deep.conf"), "v1");
        Path site = dir.resolve("site");
        start("""
                resources:
                  - file: [{ROOT/site: {source: files, recurse: true, purge: true}}]
                """);
        awaitConverged();
        Path deep = site.resolve("a/b/deep.conf");
        assertThat(deep).hasContent("v1");

        Files.writeString(deep, "tampered");
        await().atMost(PATIENCE).until(() -> Files.readString(deep).equals("v1"));
        // made outside and moved in at once: muster purges a new directory the moment it appears, before a file could be written in it
        Path stray = Files.createDirectories(dir.resolve("stray"));
        Files.writeString(stray.resolve("stray"), "x");
        Files.move(stray, site.resolve("a/new"), StandardCopyOption.ATOMIC_MOVE);
        await().atMost(PATIENCE).until(() -> !Files.exists(site.resolve("a/new")));
        Files.createDirectories(dir.resolve("files/c"));
        Files.writeString(dir.resolve("files/c/added"), "v2"); // an edit of the source is copied too
        await().atMost(PATIENCE).until(() -> Files.exists(site.resolve("c/added")) && Files.readString(site.resolve("c/added")).equals("v2"));
    }

    @Test
    void independentResourcesRunAtTheSameTime() throws Exception {
        // each waits until all three have started: only possible when they run in parallel
        start("""
                resources:
                  - exec:
                      - a: {command: "touch ROOT/a; for i in $(seq 100); do test -e ROOT/b -a -e ROOT/c && exit 0; sleep 0.05; done; exit 1", shell: true}
                      - b: {command: "touch ROOT/b; for i in $(seq 100); do test -e ROOT/a -a -e ROOT/c && exit 0; sleep 0.05; done; exit 1", shell: true}
                      - c: {command: "touch ROOT/c; for i in $(seq 100); do test -e ROOT/a -a -e ROOT/b && exit 0; sleep 0.05; done; exit 1", shell: true}
                """);
        awaitConverged();
        assertThat(reports).extracting(ResourceReport::status).containsOnly(Status.CHANGED);
    }

    @Test
    void semaphoresKeepResourcesFromOverlapping() throws Exception {
        // mkdir fails when the lock is held: an overlap is a failure
        String exec = "mkdir ROOT/lock && sleep 0.2 && rmdir ROOT/lock";
        start("""
                resources:
                  - exec:
                      - a: {command: "%1$s", shell: true, meta: {sema: [db]}}
                      - b: {command: "%1$s", shell: true, meta: {sema: "db:1"}}
                      - c: {command: "%1$s", shell: true, meta: {sema: [db, other:2]}}
                """.formatted(exec));
        awaitConverged();
        assertThat(reports).extracting(ResourceReport::status).containsOnly(Status.CHANGED);
    }

    @Test
    void aSemaphoreTakesTheSizeOfTheGraphSwappedIn() throws Exception {
        start("""
                resources:
                  - exec: [{first: {command: "true", meta: {sema: ["db:1"]}}}]
                """);
        awaitConverged();

        // each waits until all three have started: only possible when db lets three in at once
        live.swap(manifests().compile("""
                resources:
                  - exec:
                      - a: {command: "touch ROOT/a; for i in $(seq 200); do test -e ROOT/b -a -e ROOT/c && exit 0; sleep 0.05; done; exit 1", shell: true, meta: {sema: ["db:3"]}}
                      - b: {command: "touch ROOT/b; for i in $(seq 200); do test -e ROOT/a -a -e ROOT/c && exit 0; sleep 0.05; done; exit 1", shell: true, meta: {sema: ["db:3"]}}
                      - c: {command: "touch ROOT/c; for i in $(seq 200); do test -e ROOT/a -a -e ROOT/b && exit 0; sleep 0.05; done; exit 1", shell: true, meta: {sema: ["db:3"]}}
                """));
        awaitConverged();
        assertThat(List.of("exec#a", "exec#b", "exec#c")).allSatisfy(id -> assertThat(stats(id).last().status()).isEqualTo(Status.CHANGED));
    }

    @Test
    void theGlobalSemaphoreAppliesToEveryResource() throws Exception {
        String exec = "mkdir ROOT/lock && sleep 0.2 && rmdir ROOT/lock";
        start("""
                resources:
                  - exec:
                      - a: {command: "%1$s", shell: true}
                      - b: {command: "%1$s", shell: true}
                      - c: {command: "%1$s", shell: true}
                """.formatted(exec), 1);
        awaitConverged();
        assertThat(reports).extracting(ResourceReport::status).containsOnly(Status.CHANGED);
    }

    @Test
    void aPermanentFailureIsRetriedThenTheRestConvergesWithoutIt() throws Exception {
        start("""
                resources:
                  - exec:
                      - broken: {command: "false", meta: {retry: 2, delay: 50}}
                  - file:
                      - ROOT/fine: {content: ok}
                      - ROOT/blocked: {content: no, require: exec#broken}
                """);
        awaitConverged();
        ResourceStats broken = stats("exec#broken");
        assertThat(broken.checks()).isEqualTo(3);
        assertThat(broken.failures()).isEqualTo(3);
        assertThat(broken.last().status()).isEqualTo(Status.FAILED);
        assertThat(dir.resolve("fine")).hasContent("ok");
        ResourceStats blocked = stats("file#" + dir.resolve("blocked"));
        assertThat(blocked.last().status()).isEqualTo(Status.SKIPPED);
        assertThat(blocked.last().message()).isEqualTo("dependency exec#broken failed");
        assertThat(dir.resolve("blocked")).doesNotExist();
    }

    @Test
    void aRetryThatSucceedsLetsItsDependentsRun() throws Exception {
        // fails twice, then succeeds: the counter file records the attempts
        start("""
                resources:
                  - exec:
                      - flaky:
                          command: "echo x >> ROOT/attempts; test $(wc -l < ROOT/attempts) -ge 3"
                          shell: true
                          creates: ROOT/done
                          meta: {retry: 5, delay: 20}
                      - finish: {command: "touch ROOT/done", require: exec#flaky}
                """);
        awaitConverged();
        assertThat(Files.readAllLines(dir.resolve("attempts"))).hasSize(3);
        assertThat(stats("exec#flaky").failures()).isEqualTo(2);
        assertThat(dir.resolve("done")).exists();
    }

    @Test
    void aWatchThatKeepsFailingCountsEachFailedAttemptOnce() throws Exception {
        start("""
                resources:
                  - exec:
                      - watched: {command: "true", creates: ROOT, watchcmd: "exit 3", shell: true, meta: {retry: 2, delay: 20}}
                """);
        await().atMost(PATIENCE).until(() -> stats("exec#watched").last() != null
                && stats("exec#watched").last().status() == Status.FAILED);
        awaitConverged();
        assertThat(stats("exec#watched").last().error()).startsWith("watch failed: ");
        assertThat(stats("exec#watched").failures()).as("the first watch and its two retries").isEqualTo(3);
    }

    @Test
    void pollChecksOnATimerInsteadOfWatching() throws Exception {
        Path file = dir.resolve("polled");
        start("""
                resources:
                  - file: [{ROOT/polled: {content: v, meta: {poll: 1}}}]
                """);
        awaitConverged();
        long before = stats("file#" + file).checks();
        await().atMost(PATIENCE).until(() -> stats("file#" + file).checks() >= before + 2);
        assertThat(transitions).as("a poll that finds nothing to do is not activity").containsExactly(true);

        Files.delete(file);
        await().atMost(PATIENCE).until(() -> Files.exists(file));
        await().atMost(PATIENCE).until(() -> transitions.equals(List.of(true, false, true)));
    }

    @Test
    void limitAndBurstBoundHowOftenAResourceIsChecked() throws Exception {
        // watchcmd prints a line every 10 ms: without a limit that would be about 100 checks a second
        long start = System.nanoTime();
        start("""
                resources:
                  - exec:
                      - limited:
                          command: "true"
                          creates: ROOT
                          watchcmd: "while true; do echo tick; sleep 0.01; done"
                          shell: true
                          meta: {limit: 4, burst: 2}
                """);
        await().atMost(PATIENCE).until(() -> stats("exec#limited").checks() >= 8);
        double seconds = (System.nanoTime() - start) / 1e9;
        long checks = stats("exec#limited").checks();
        assertThat(checks).as("checks in %.2fs", seconds).isLessThanOrEqualTo((long) Math.ceil(3 + 4 * seconds));
    }

    @Test
    void watchcmdLinesAndWatchfilesTriggerAnExec() throws Exception {
        Path trigger = dir.resolve("trigger");
        Files.writeString(trigger, "0");
        start("""
                resources:
                  - exec:
                      - copy:
                          command: "cp ROOT/trigger ROOT/copy"
                          unless: "cmp -s ROOT/trigger ROOT/copy"
                          watchfiles: [ROOT/trigger]
                """);
        awaitConverged();
        assertThat(dir.resolve("copy")).hasContent("0");
        Files.writeString(trigger, "1");
        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("copy")).equals("1"));
    }

    @Test
    void aSwapKeepsUnchangedResourcesRunningAndReplacesChangedOnes() throws Exception {
        start("""
                resources:
                  - file:
                      - ROOT/kept: {content: same}
                      - ROOT/edited: {content: v1}
                      - ROOT/removed: {content: bye}
                """);
        awaitConverged();
        Files.writeString(dir.resolve("kept"), "drift");
        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("kept")).equals("same"));
        awaitConverged();
        long keptChecks = stats("file#" + dir.resolve("kept")).checks();

        live.swap(manifests().compile("""
                resources:
                  - file:
                      - ROOT/kept: {content: same}
                      - ROOT/edited: {content: v2}
                      - ROOT/added: {content: new}
                """));
        awaitConverged();
        assertThat(dir.resolve("edited")).hasContent("v2");
        assertThat(dir.resolve("added")).hasContent("new");
        assertThat(dir.resolve("removed")).hasContent("bye"); // not reversed unless asked
        assertThat(stats("file#" + dir.resolve("kept")).checks()).isEqualTo(keptChecks);
        assertThat(live.stats()).extracting(ResourceStats::id).doesNotContain("file#" + dir.resolve("removed"));

        Files.delete(dir.resolve("kept")); // its watch still works
        await().atMost(PATIENCE).until(() -> Files.exists(dir.resolve("kept")));
        assertThat(stats("file#" + dir.resolve("kept")).checks()).isGreaterThan(keptChecks);
    }

    @Test
    void reverseUndoesAResourceThatLeavesTheGraph() throws Exception {
        Path existing = dir.resolve("existing");
        Files.writeString(existing, "original\n");
        Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rw-------"));
        start("""
                resources:
                  - file:
                      - ROOT/created: {content: new, meta: {reverse: true}}
                      - ROOT/existing: {content: "managed\\n", mode: "0644", meta: {reverse: true}}
                      - ROOT/plain: {content: stays}
                """);
        awaitConverged();
        assertThat(existing).hasContent("managed");

        live.swap(manifests().compile("resources: []\n"));
        awaitConverged();
        assertThat(dir.resolve("created")).doesNotExist();
        assertThat(existing).hasContent("original");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(existing))).isEqualTo("rw-------");
        assertThat(dir.resolve("plain")).hasContent("stays");
    }

    @Test
    void reverseUndoesADirectoryAfterTheFilesInIt() throws Exception {
        start("""
                resources:
                  - file:
                      - ROOT/made: {ensure: directory, meta: {reverse: true}}
                      - ROOT/made/inner: {content: x, meta: {reverse: true}}
                """);
        awaitConverged();
        assertThat(dir.resolve("made/inner")).hasContent("x");

        live.swap(manifests().compile("resources: []\n"));
        awaitConverged();
        assertThat(reports).filteredOn(r -> "reversed".equals(r.message()) || r.status() == Status.FAILED)
                .extracting(ResourceReport::status).containsOnly(Status.CHANGED);
        assertThat(dir.resolve("made")).doesNotExist();
    }

    @Test
    void aSwapDoesNotWaitForARealizeResourceThatAFailedDependencyBlocks() throws Exception {
        start("""
                resources:
                  - exec: [{broken: {command: "false"}}]
                  - file: [{ROOT/blocked: {content: x, require: exec#broken, meta: {realize: true}}}]
                """);
        awaitConverged();
        assertThat(stats("file#" + dir.resolve("blocked")).last().status()).isEqualTo(Status.SKIPPED);

        swapInOneNewFile(); // it cannot converge until its dependency recovers: the swap must not wait for that
        assertThat(dir.resolve("blocked")).doesNotExist();
    }

    @Test
    void aSwapDoesNotWaitForARealizeResourceThatKeepsRetrying() throws Exception {
        start("""
                resources:
                  - exec:
                      - broken: {command: "false", meta: {retry: -1, delay: 50}}
                      - stubborn: {command: "false", meta: {retry: -1, delay: 50, realize: true}}
                  - file: [{ROOT/waiting: {content: x, require: exec#broken, meta: {realize: true}}}]
                """);
        await().atMost(PATIENCE).until(() -> stats("exec#broken").failures() >= 1 && stats("exec#stubborn").failures() >= 1);

        swapInOneNewFile(); // neither can converge while the failures go on: a swap waiting for that could wait forever
        assertThat(dir.resolve("waiting")).doesNotExist();
    }

    @Test
    void realizeWaitsForAResourceThatRecoversOnItsNextTry() throws Exception {
        start("""
                resources:
                  - exec:
                      - flaky:
                          command: "echo x >> ROOT/attempts; test $(wc -l < ROOT/attempts) -ge 2 && touch ROOT/done"
                          shell: true
                          creates: ROOT/done
                          meta: {retry: 3, delay: 500, realize: true}
                """);
        await().atMost(PATIENCE).until(() -> stats("exec#flaky").failures() >= 1);
        swapInOneNewFile(); // its retry is bound to succeed: the swap waits for it
        assertThat(dir.resolve("done")).exists();
    }

    @Test
    void aResourceRemovedDuringItsFirstApplyStopsWithTheWatchItStartsAfter() throws Exception {
        // a late-valued resource starts its watch after its first apply: here, after it was told to stop
        start("""
                resources:
                  - exec:
                      - source: {command: [echo, hello]}
                      - slow:
                          command: "touch ROOT/started; sleep 1; echo ${ lookup('exec#source.stdout') }"
                          shell: true
                          watchfiles: [ROOT/watched]
                """);
        await().atMost(PATIENCE).until(() -> Files.exists(dir.resolve("started")));
        swapInOneNewFile();
    }

    @Test
    void aResourceInNoopIsNotReversedWhenItLeaves() throws Exception {
        start("""
                resources:
                  - file: [{ROOT/made: {content: x, meta: {reverse: true}}}]
                """);
        awaitConverged();
        live.swap(manifests().compile("""
                resources:
                  - file: [{ROOT/made: {content: x, meta: {reverse: true, noop: true}}}]
                """));
        awaitConverged();
        swapInOneNewFile();
        assertThat(dir.resolve("made")).as("noop changes nothing, undoing included").exists();
    }

    @Test
    void aResourceWatchesWhereTheValueItReadsNowPoints() throws Exception {
        Files.writeString(dir.resolve("one"), "");
        Files.writeString(dir.resolve("two"), "");
        Files.writeString(dir.resolve("choice"), dir.resolve("one") + "\n");
        start("""
                resources:
                  - exec:
                      - pick: {command: "cat ROOT/choice", shell: true, watchfiles: [ROOT/choice]}
                      - consumer: {command: "echo run >> ROOT/runs", shell: true, watchfiles: ["{{ lookup('exec#pick.stdout') }}"]}
                """);
        awaitConverged();
        long before = lines(dir.resolve("runs"));
        Files.writeString(dir.resolve("choice"), dir.resolve("two") + "\n");
        await().atMost(PATIENCE).until(() -> lines(dir.resolve("runs")) > before);
        awaitConverged();

        long moved = lines(dir.resolve("runs"));
        Files.writeString(dir.resolve("two"), "changed\n");
        await().atMost(PATIENCE).until(() -> lines(dir.resolve("runs")) > moved);
    }

    @Test
    void aReceiverRunsAgainWhenTheValueItReadsChanges() throws Exception {
        Path source = dir.resolve("source");
        Files.writeString(source, "one");
        start("""
                resources:
                  - exec:
                      - reader: {command: "cat ROOT/source", watchfiles: [ROOT/source]}
                  - file:
                      - ROOT/copy: {content: "{{ lookup('exec#reader.stdout') }}"}
                      - ROOT/received: {recv: {content: exec#reader.stdout}}
                """);
        awaitConverged();
        assertThat(dir.resolve("copy")).hasContent("one");
        Files.writeString(source, "two");
        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("copy")).equals("two"));
        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("received")).equals("two"));
    }

    @Test
    void noopReportsDriftWithoutRepairingIt() throws Exception {
        Path file = dir.resolve("noop");
        Files.writeString(file, "wanted");
        start("""
                resources:
                  - file: [{ROOT/noop: {content: wanted, meta: {noop: true}, notify: exec#restart}}]
                  - exec: [{restart: {command: "touch ROOT/restarted", refreshonly: true}}]
                """);
        awaitConverged();
        Files.writeString(file, "drift");
        await().atMost(PATIENCE).until(() -> reports.stream().anyMatch(r -> r.status() == Status.CHANGED));
        awaitConverged();
        assertThat(file).hasContent("drift");
        assertThat(dir.resolve("restarted")).as("a change that only would have happened refreshes nothing").doesNotExist();
    }

    @Test
    void aRepairInsideAChildManifestRefreshesSubscribersOfItsApply() throws Exception {
        manifests().write("lib/child.yaml", """
                resources:
                  - file: [{ROOT/child.txt: {content: c}}]
                  - exec: [{broken: {command: "false"}}]
                """);
        start("""
                resources:
                  - apply: [{lib/child.yaml: {}}]
                  - exec:
                      - notified: {command: "sh -c 'echo x >> ROOT/notified'", refreshonly: true, subscribe: ["apply#lib/child.yaml"]}
                """);
        awaitConverged();
        ResourceStats apply = stats("apply#lib/child.yaml");
        assertThat(apply.last().status()).isEqualTo(Status.FAILED);
        assertThat(apply.last().error()).isEqualTo("child manifest had 1 failed resources");

        manifests().write("lib/child.yaml", """
                resources:
                  - file: [{ROOT/child.txt: {content: c}}]
                """);
        live.swap(manifests().compile(dir.resolve("site.yaml"), Map.of()));
        awaitConverged();
        assertThat(stats("apply#lib/child.yaml").last().status()).isNotEqualTo(Status.FAILED);
        long before = lines(dir.resolve("notified"));

        Files.writeString(dir.resolve("child.txt"), "tampered");
        await().atMost(PATIENCE).until(() -> lines(dir.resolve("notified")) == before + 1);
        assertThat(dir.resolve("child.txt")).hasContent("c");
    }
}
