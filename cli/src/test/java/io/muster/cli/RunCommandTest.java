package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.agent.testing.Promtool;
import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code muster run} end to end, as a user sees it: muster runs in a JVM of its own, gets real signals,
 * and is observed through its files, its output, its status file and its metrics.
 */
class RunCommandTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final MusterProcesses processes = new MusterProcesses();

    // --- signals and the final report

    @Test
    void sigtermAfterConvergingExitsZeroAndPrintsTheSummary() throws Exception {
        Path site = manifest("""
                resources:
                  - file:
                      - ROOT/a: {content: "a\\n"}
                      - ROOT/b: {content: "b\\n"}
                """);
        MusterProcess muster = run(site, "--status-file", status());
        eventually().until(() -> Files.exists(path("a")) && Files.exists(path("b")) && converged());

        muster.terminate();

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(muster.out())
                .containsPattern("(?m)^file#" + dir + "/a changed ensure,content \\d+ms$")
                .containsPattern("(?m)^run on \\S+: 2 resources for \\d+ms, converged$")
                .containsPattern("(?m)^  checks \\d+, changes 2, failures 0; now: .*failed 0, skipped 0, pending 0$");
        assertThat(muster.err()).contains("muster: stopping (SIGTERM); send it again to exit at once");
    }

    @Test
    void sigtermWithJsonOutputPrintsEachResourcesCounts() throws Exception {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                  - exec: [{fails: {command: "false"}}]
                """);
        MusterProcess muster = run(site, "--status-file", status(), "--output", "json");
        eventually().until(() -> Files.exists(path("a")) && converged());

        muster.terminate();

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        Map<String, Object> doc = Manifests.json(muster.out());
        assertThat(doc).containsEntry("mode", "run").containsEntry("converged", true).containsKeys("host", "duration_ms");
        assertThat(map(doc, "summary")).containsEntry("total", 2).containsEntry("failed", 1).containsEntry("applies", 1)
                .containsEntry("failures", 1).containsKey("checks");
        Map<String, Object> file = resource(doc, "file#" + path("a"));
        assertThat(file).containsEntry("kind", "file").containsEntry("applies", 1).containsEntry("failures", 0);
        assertThat(number(file, "checks")).isGreaterThanOrEqualTo(1);
        assertThat(resource(doc, "exec#fails")).containsEntry("kind", "exec").containsEntry("status", "failed")
                .containsEntry("checks", 1).containsEntry("applies", 0).containsEntry("failures", 1)
                .containsEntry("error", "'false' exited with 1 (expected 0)");
    }

    @Test
    void aSecondSigtermDuringALongApplyExitsAtOnce() throws Exception {
        Path site = manifest("""
                resources:
                  - exec: [{long: {command: "sleep 300"}}]
                """);
        MusterProcess muster = run(site);
        eventually().until(() -> !muster.descendants().isEmpty()); // the command runs
        List<ProcessHandle> commands = muster.descendants();

        muster.terminate();
        eventually().until(() -> muster.err().contains("muster: stopping (SIGTERM)"));
        muster.terminate();

        assertThat(muster.awaitExit(Duration.ofSeconds(10))).isEqualTo(143);
        // the first signal is waiting for the command to finish; the second must not leave it running
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> commands.stream().noneMatch(ProcessHandle::isAlive));
    }

    @Test
    void oneSigtermLetsTheApplyUnderWayFinishFirst() throws Exception {
        Path site = manifest("""
                resources:
                  - exec: [{slow: {command: "sleep 2 && touch ROOT/finished", shell: true}}]
                """);
        MusterProcess muster = run(site);
        eventually().until(() -> !muster.descendants().isEmpty());

        muster.terminate();

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(path("finished")).as("the exec had finished when muster exited").exists();
        assertThat(muster.out()).containsPattern("(?m)^exec#slow changed executed \\d+ms$")
                .contains("checks 1, changes 1, failures 0");
    }

    @Test
    void aSigtermStartsNoNewApply() throws Exception {
        Path site = manifest("""
                resources:
                  - exec: [{slow: {command: "sleep 1"}}]
                  - file: [{ROOT/after: {content: "x", require: "exec#slow"}}]
                """);
        MusterProcess muster = run(site);
        eventually().until(() -> !muster.descendants().isEmpty());

        muster.terminate();

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(path("after")).doesNotExist();
        assertThat(muster.out()).contains("pending 1");
    }

    // --- when a run ends by itself

    @Test
    void convergedTimeoutExitsOnceNothingHappenedForThatLong() throws Exception {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                """);
        MusterProcess muster = run(site, "--converged-timeout", 1, "--status-file", status(), "--output", "json");

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(path("a")).hasContent("a");
        assertThat(statusLines()).last().isEqualTo("converged");
        assertThat(Manifests.json(muster.out())).containsEntry("converged", true);
    }

    @Test
    void convergedTimeoutZeroExitsOnlyAfterConverging() throws Exception {
        // the file, declared first, waits for the exec: an early exit stops it before it ever runs
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n", require: "exec#first"}}]
                  - exec: [{first: {command: "sleep 0.5"}}]
                """);
        MusterProcess muster = run(site, "--converged-timeout", 0, "--output", "json");

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(path("a")).hasContent("a");
        assertThat(map(Manifests.json(muster.out()), "summary")).containsEntry("applies", 2).containsEntry("pending", 0);
    }

    @Test
    void aResourceThatOverflowsTheStackFailsAndTheRunStillConvergesAndEnds() throws Exception {
        int depth = 5000; // a document target nested this deep once left the resource pending forever
        Files.writeString(path("deep.json"), "{\"a\": ".repeat(depth) + "1" + "}".repeat(depth));
        Path site = manifest("""
                resources:
                  - document: [{ROOT/deep.json: {content: {a: {b: 1}}}}]
                  - file: [{ROOT/a: {content: "a\\n"}}]
                """);
        MusterProcess muster = run(site, "--converged-timeout", 0, "--output", "json");

        assertThat(muster.awaitExit(PATIENCE)).as("a resource still fails").isEqualTo(1);
        assertThat(path("a")).hasContent("a");
        assertThat(map(Manifests.json(muster.out()), "summary")).containsEntry("failed", 1).containsEntry("pending", 0);
        assertThat(resource(Manifests.json(muster.out()), "document#" + path("deep.json"))).containsEntry("status", "failed");
    }

    @Test
    void convergedWithResourcesStillFailingExitsOne() throws Exception {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                  - exec: [{one: {command: "false"}}, {two: {command: "false"}}, {three: {command: "false"}}]
                """);
        MusterProcess muster = run(site, "--converged-timeout", 1);

        assertThat(muster.awaitExit(PATIENCE)).isEqualTo(1);
        assertThat(muster.out()).containsPattern("(?m)^run on \\S+: 4 resources for \\d+ms, converged$")
                .containsPattern("(?m)^  checks \\d+, changes 1, failures 3; now: changed 0, stable 1, failed 3,");
    }

    @Test
    void detailedExitcodesSayWhetherTheRunChangedSomethingAndWhetherResourcesStillFail() throws Exception {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                """);
        assertThat(run(site, "--converged-timeout", 0, "--detailed-exitcodes").awaitExit(PATIENCE)).as("changed").isEqualTo(2);
        assertThat(run(site, "--converged-timeout", 0, "--detailed-exitcodes").awaitExit(PATIENCE)).as("nothing to do").isZero();
        Files.delete(path("a"));
        assertThat(run(site, "--converged-timeout", 0, "--detailed-exitcodes", "--noop").awaitExit(PATIENCE)).as("would change")
                .isEqualTo(2);
        manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                  - exec: [{broken: {command: "false"}}]
                """);
        assertThat(run(site, "--converged-timeout", 0, "--detailed-exitcodes").awaitExit(PATIENCE)).as("both").isEqualTo(6);
        assertThat(run(site, "--converged-timeout", 0, "--detailed-exitcodes").awaitExit(PATIENCE)).as("failing").isEqualTo(4);
    }

    @Test
    void sighupReloadsTheManifestWithItsFactsAndTheRunGoesOn() throws Exception {
        Path facts = path("facts.yaml");
        Files.writeString(facts, "colour: red\n");
        Path site = manifest("""
                resources:
                  - file: [{ROOT/colour: {content: "${facts.colour}\\n"}}]
                """);
        MusterProcess muster = run(site, "--facts", facts, "--status-file", status());
        eventually().until(() -> Files.exists(path("colour")) && converged());
        Files.writeString(facts, "colour: blue\n"); // the facts file is not watched: SIGHUP says it changed

        hangup(muster);

        eventually().until(() -> Files.readString(path("colour")).equals("blue\n") && statusLines().size() >= 3 && converged());
        assertThat(muster.err()).contains("muster: reloading the manifest (SIGHUP)", "manifest reloaded: 1 resources");
        hangup(muster); // and again: a second SIGHUP is not the JVM's exit 129 either
        eventually().until(() -> muster.err().split("manifest reloaded", -1).length == 3);
        assertThat(muster.isAlive()).isTrue();
        muster.terminate();
        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(muster.out()).containsPattern("(?m)^file#" + path("colour") + " changed content \\d+ms$")
                .containsPattern("(?m)^run on \\S+: 1 resources for \\d+ms, (not )?converged$").contains("failures 0");
    }

    private static void hangup(MusterProcess muster) throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("kill", "-HUP", Long.toString(muster.pid())).start().waitFor()).isZero();
    }

    @Test
    void theStatusFileSaysConvergedOnlyOnceTheResourcesConverged() throws Exception {
        Path site = manifest("""
                resources:
                  - exec: [{slow: {command: "sleep 0.5"}}]
                """);
        MusterProcess muster = run(site, "--status-file", status());
        eventually().until(() -> muster.out().contains("exec#slow changed") && converged());

        muster.terminate();

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(statusLines()).containsExactly("converged");
    }

    @Test
    void maxRuntimeEndsARunThatKeepsFailing() throws Exception {
        Path site = manifest("""
                resources:
                  - exec: [{broken: {command: "false", meta: {retry: -1, delay: 100}}}]
                """);
        MusterProcess muster = run(site, "--max-runtime", 2, "--output", "json");

        assertThat(muster.awaitExit(PATIENCE)).as("a resource still fails").isEqualTo(1);
        Map<String, Object> doc = Manifests.json(muster.out());
        assertThat(number(doc, "duration_ms")).isBetween(2000L, 10_000L);
        Map<String, Object> broken = resource(doc, "exec#broken");
        assertThat(broken).containsEntry("status", "failed");
        assertThat(number(broken, "failures")).isGreaterThan(1);
    }

    @Test
    void aRunStoppedWhileAResourceKeepsFailingIsNotConverged() throws Exception {
        Path site = manifest("""
                resources:
                  - exec: [{broken: {command: "false", meta: {retry: -1, delay: 100}}}]
                """);
        MusterProcess muster = run(site, "--max-runtime", 1, "--status-file", status(), "--output", "json");

        assertThat(muster.awaitExit(PATIENCE)).isEqualTo(1);
        assertThat(Manifests.json(muster.out())).containsEntry("converged", false);
        assertThat(statusLines()).doesNotContain("converged");
    }

    @Test
    void aRunThatKeepsRepairingADriftThatNeverStopsIsNotConvergedWhenItEnds() throws Exception {
        Path site = manifest("""
                resources:
                  - exec:
                      - drift: {command: "echo x >> ROOT/repairs", shell: true, watchcmd: "while true; do echo drift; sleep 0.2; done"}
                """);
        MusterProcess text = run(site, "--max-runtime", 3);
        assertThat(text.awaitExit(PATIENCE)).isZero();
        MusterProcess json = run(site, "--max-runtime", 3, "--output", "json");
        assertThat(json.awaitExit(PATIENCE)).isZero();
        assertThat(Files.readAllLines(path("repairs")).size()).as("repaired again and again").isGreaterThan(5);
        assertThat(text.out()).containsPattern("(?m)^run on \\S+: 1 resources for \\d+ms, not converged$");
        assertThat(Manifests.json(json.out())).containsEntry("converged", false);
    }

    // --- keeping things applied

    @Test
    void aDeletedEditedOrChmoddedFileIsRepairedAndTheStatusFileFollows() throws Exception {
        Path file = path("motd");
        Path site = manifest("""
                resources:
                  - file: [{ROOT/motd: {content: "hello\\n", mode: "0640"}}]
                """);
        MusterProcess muster = run(site, "--status-file", status());
        eventually().until(() -> Files.exists(file) && converged());

        List<Callable<Object>> tampers = List.of(
                () -> { Files.delete(file); return null; },
                () -> Files.writeString(file, "tampered\n"),
                () -> Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrwxrwx")));
        for (Callable<Object> tamper : tampers) {
            int before = statusLines().size();
            tamper.call();
            eventually().until(() -> Files.exists(file) && Files.readString(file).equals("hello\n")
                    && mode(file).equals("rw-r-----") && statusLines().size() > before && converged());
            assertThat(statusLines().subList(before, statusLines().size())).startsWith("not converged");
        }
        assertThat(muster.out().lines().filter(l -> l.startsWith("file#" + file + " changed"))).hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    void aManagedDirectoryMovedAwayAndMadeAgainEmptyAndDriftInACopiedTreeAreRepaired() throws Exception {
        Files.createDirectories(path("files/conf.d"));
        Files.writeString(path("files/conf.d/app.conf"), "port=80\n");
        Path site = manifest("""
                resources:
                  - file:
                      - ROOT/app: {ensure: directory}
                      - ROOT/app/motd: {content: "hello\\n"}
                      - ROOT/etc: {source: files, recurse: true, purge: true}
                  - line: [{motd-line: {path: ROOT/app/extra, line: "x=1"}}]
                """);
        MusterProcess muster = run(site, "--status-file", status());
        eventually().until(() -> Files.exists(path("app/motd")) && Files.exists(path("etc/conf.d/app.conf")) && converged());

        Path empty = Files.createDirectory(path("empty"));
        Files.move(path("app"), path("moved-away"));
        Files.move(empty, path("app")); // a directory is there at once: only its files are missing
        eventually().until(() -> Files.exists(path("app/motd")) && Files.exists(path("app/extra")));
        assertThat(path("app/motd")).hasContent("hello");

        Files.writeString(path("etc/conf.d/app.conf"), "port=8080\n");
        Files.writeString(path("etc/conf.d/stray"), "x");
        eventually().until(() -> Files.readString(path("etc/conf.d/app.conf")).equals("port=80\n") && !Files.exists(path("etc/conf.d/stray")));
        muster.terminate();
        assertThat(muster.awaitExit(PATIENCE)).isZero();
    }

    @Test
    void noopReportsDriftWithoutRepairingIt() throws Exception {
        Path file = path("noop");
        Path site = manifest("""
                resources:
                  - file: [{ROOT/noop: {content: "wanted\\n"}}]
                """);
        MusterProcess muster = run(site, "--noop", "--status-file", status());
        String drift = "file#" + file + " changed ";
        eventually().until(() -> muster.out().contains(drift + "ensure,content") && converged());
        assertThat(file).doesNotExist();

        Files.writeString(file, "other\n");
        eventually().until(() -> muster.out().lines().anyMatch(l -> l.startsWith(drift + "content")));
        muster.terminate();

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(file).hasContent("other");
        assertThat(muster.out()).containsPattern("(?m)^run \\(noop\\) on \\S+: 1 resources for \\d+ms, ");
    }

    // --- parallelism

    @Test
    void asManyIndependentExecsAsCoresRunAtOnceUnderTheDefaultSema() throws Exception {
        int n = Runtime.getRuntime().availableProcessors(); // the default --sema; muster's JVM sees the same cores
        org.junit.jupiter.api.Assumptions.assumeTrue(n >= 2, "needs two cores");
        String all = IntStream.range(0, n).mapToObj(i -> "-e ROOT/started" + i).collect(Collectors.joining(" -a "));
        StringBuilder yaml = new StringBuilder("resources:\n  - exec:\n");
        for (int i = 0; i < n; i++) {
            // each waits until all have started: only possible when they run at the same time
            yaml.append("      - e%d: {command: \"touch ROOT/started%d; until test %s; do sleep 0.05; done\", shell: true, timeout: 15}\n"
                    .formatted(i, i, all));
        }
        MusterProcess muster = run(manifest(yaml.toString()), "--converged-timeout", 1, "--output", "json");

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(map(Manifests.json(muster.out()), "summary")).containsEntry("applies", n).containsEntry("failures", 0);
    }

    @Test
    void semaOneNeverRunsTwoResourcesAtOnce() throws Exception {
        // mkdir fails while another holds the lock: an overlap is a failure
        Path site = manifest("""
                resources:
                  - exec:
                      - defaults: {command: "mkdir ROOT/lock && sleep 0.3 && rmdir ROOT/lock", shell: true}
                      - a
                      - b
                      - c
                """);
        MusterProcess muster = run(site, "--sema", 1, "--converged-timeout", 1, "--output", "json");

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        assertThat(map(Manifests.json(muster.out()), "summary")).containsEntry("applies", 3).containsEntry("failures", 0);
    }

    // --- the manifest changes under a running graph

    @Test
    void aChangedManifestIsSwappedInAndABrokenOneLeavesTheRunningGraph() throws Exception {
        Path site = manifest("""
                resources:
                  - file:
                      - ROOT/keep: {content: "keep\\n"}
                      - ROOT/change: {content: "v1\\n"}
                      - ROOT/gone: {content: "temp\\n", meta: {reverse: true}}
                """);
        MusterProcess muster = run(site, "--status-file", status(), "--output", "json");
        eventually().until(() -> Files.exists(path("gone")) && Files.exists(path("change")) && converged());
        tamperAndAwaitRepair(path("keep"), "keep\n");
        tamperAndAwaitRepair(path("keep"), "keep\n");

        manifest("""
                resources:
                  - file:
                      - ROOT/keep: {content: "keep\\n"}
                      - ROOT/change: {content: "v2\\n"}
                      - ROOT/new: {content: "new\\n"}
                """);
        eventually().until(() -> Files.exists(path("new")) && Files.readString(path("change")).equals("v2\n")
                && !Files.exists(path("gone")));

        manifest("""
                resources:
                  - file:
                      - ROOT/keep: {content: "keep\\n"
                """);
        eventually().until(() -> muster.err().contains("the manifest has errors; the running graph stays as it is"));
        assertThat(muster.err()).contains(site + ":4:1: invalid YAML");
        tamperAndAwaitRepair(path("keep"), "keep\n");

        Path edited = path("site.yaml.new"); // saved as editors do: written aside, renamed over
        Files.writeString(edited, """
                resources:
                  - file:
                      - %1$s/keep: {content: "keep\\n"}
                      - %1$s/change: {content: "v2\\n"}
                      - %1$s/new: {content: "new\\n"}
                      - %1$s/again: {content: "again\\n"}
                """.formatted(dir));
        Files.move(edited, site, StandardCopyOption.ATOMIC_MOVE);
        eventually().until(() -> Files.exists(path("again")));
        eventually().until(this::converged);
        muster.terminate();

        assertThat(muster.awaitExit(PATIENCE)).isZero();
        Map<String, Object> doc = Manifests.json(muster.out());
        assertThat(list(doc, "resources")).extracting(r -> r.get("id")).containsExactly(
                "file#" + path("keep"), "file#" + path("change"), "file#" + path("new"), "file#" + path("again"));
        Map<String, Object> keep = resource(doc, "file#" + path("keep"));
        // created once and repaired after each of three tampers, across two reloads: its counters were kept
        assertThat(number(keep, "applies")).isGreaterThanOrEqualTo(4);
        assertThat(number(keep, "checks")).isGreaterThanOrEqualTo(4);
        assertThat(muster.err()).contains("manifest reloaded: 3 resources", "manifest reloaded: 4 resources");
        assertThat(list(doc, "reversed")).singleElement().satisfies(r -> {
            assertThat(r).containsEntry("id", "file#" + path("gone")).containsEntry("status", "changed");
            assertThat(r.get("changes")).isEqualTo(List.of("ensure"));
        });
    }

    @Test
    void aDeviceFifoOrMissingDirectoryAsStatusFileIsReportedAndNeverReplaced() throws Exception {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                """);
        Path device = path("null"), fifo = path("fifo");
        assertThat(new ProcessBuilder("mknod", "-m", "666", device.toString(), "c", "1", "3").inheritIO().start().waitFor()).isZero();
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        for (Path status : List.of(device, fifo, path("missing/status"))) {
            Cli cli = Cli.run("run", site, "--tmp-prefix", "--max-runtime", "1", "--status-file", status);
            assertThat(cli.exit()).as(status.toString()).isEqualTo(1);
            assertThat(cli.err()).as(status.toString()).startsWith("muster: cannot write the status file: ").doesNotContain("internal error");
        }
        assertThat((int) Files.getAttribute(device, "unix:mode") & 0170000).as("still a character device").isEqualTo(0020000);
        assertThat((int) Files.getAttribute(fifo, "unix:mode") & 0170000).as("still a FIFO").isEqualTo(0010000);
        assertThat(path("a")).as("nothing ran").doesNotExist();
    }

    // --- metrics

    @Test
    void aMalformedPrometheusListenAddressIsAUsageError() {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                """);
        for (String listen : List.of("nonsense", "127.0.0.1:http", "127.0.0.1:70000")) {
            Cli cli = Cli.run("run", site, "--tmp-prefix", "--max-runtime", "1", "--prometheus-listen", listen);
            assertThat(cli.exit()).as(listen).isEqualTo(64);
            assertThat(cli.err()).as(listen).contains("--prometheus-listen").doesNotContain("internal error");
        }
        assertThat(path("a")).as("nothing ran").doesNotExist();
    }

    @Test
    void aTakenMetricsPortIsReportedBeforeAnythingRuns() throws Exception {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                """);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String listen = "127.0.0.1:" + taken.getLocalPort();
            Cli cli = Cli.run("run", site, "--tmp-prefix", "--max-runtime", "1", "--prometheus-listen", listen);
            assertThat(cli.exit()).isEqualTo(1);
            assertThat(cli.err()).contains("cannot serve metrics on " + listen).doesNotContain("internal error");
        }
        assertThat(path("a")).as("nothing ran").doesNotExist();
    }

    @Test
    void prometheusMetricsDescribeTheRun() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        double startedAt = System.currentTimeMillis() / 1000.0;
        Path site = manifest("""
                resources:
                  - file:
                      - ROOT/a: {content: "a\\n"}
                      - ROOT/b: {content: "b\\n"}
                  - exec:
                      - hard: {command: "false"}
                      # fails twice, then succeeds: two soft failures
                      - flaky:
                          command: "n=$(cat ROOT/count 2>/dev/null || echo 0); echo $((n+1)) > ROOT/count; test $n -ge 2"
                          shell: true
                          meta: {retry: 5, delay: 50}
                """);
        MusterProcess muster = run(site, "--status-file", status(), "--prometheus-listen", "127.0.0.1:" + port);
        eventually().until(() -> Files.exists(path("a")) && Files.exists(path("b")) && converged());
        Metrics metrics = Metrics.scrape(port);

        assertThat(metrics.value("muster_resources", "kind", "file")).isEqualTo(2.0);
        assertThat(metrics.value("muster_resources", "kind", "exec")).isEqualTo(2.0);
        assertThat(metrics.value("muster_converged")).isEqualTo(1.0);
        assertThat(metrics.value("muster_graph_start_time_seconds")).isBetween(startedAt - 1, System.currentTimeMillis() / 1000.0);
        assertThat(metrics.value("muster_resources_failing", "kind", "exec", "failure", "hard")).isEqualTo(1.0);
        assertThat(metrics.value("muster_resources_failing", "kind", "exec", "failure", "soft")).isEqualTo(0.0);
        assertThat(metrics.value("muster_resources_failing", "kind", "file", "failure", "hard")).isEqualTo(0.0);
        assertThat(metrics.value("muster_failures_total", "kind", "exec", "failure", "soft")).isEqualTo(2.0);
        assertThat(metrics.value("muster_failures_total", "kind", "exec", "failure", "hard")).isEqualTo(1.0);
        assertThat(metrics.value("muster_checkapply_total", "kind", "exec", "apply", "true", "eventful", "false", "errorful", "true"))
                .isEqualTo(3.0);
        assertThat(metrics.value("muster_checkapply_total", "kind", "exec", "apply", "true", "eventful", "true", "errorful", "false"))
                .isEqualTo(1.0);
        assertThat(metrics.value("muster_checkapply_total", "kind", "file", "apply", "true", "eventful", "true", "errorful", "false"))
                .isEqualTo(2.0);
        assertThat(metrics.families()).contains("jvm_memory_used_bytes", "jvm_threads_current");
        assertThat(metrics.text()).contains("# TYPE muster_failures_total counter\n", "# TYPE muster_checkapply_total counter\n");
        assertThat(Promtool.problems(metrics.text(), dir)).as("promtool check metrics").isEmpty();

        Files.writeString(path("a"), "tampered\n");
        eventually().until(() -> Metrics.scrape(port)
                .value("muster_checkapply_total", "kind", "file", "apply", "true", "eventful", "true", "errorful", "false") == 3.0);
        assertThat(path("a")).hasContent("a");
    }

    /** A scrape of {@code /metrics}: its text, and each sample by family name and labels. */
    private record Metrics(String text, Map<String, Double> samples) {
        private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)");
        private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

        static Metrics scrape(int port) throws IOException, InterruptedException {
            try (HttpClient client = HttpClient.newHttpClient()) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                Map<String, Double> samples = new TreeMap<>();
                for (String line : response.body().lines().toList()) {
                    if (line.isBlank() || line.startsWith("#")) continue;
                    Matcher m = SAMPLE.matcher(line);
                    assertThat(m.matches()).as("a sample line: %s", line).isTrue();
                    samples.put(key(m.group(1), labels(m.group(2))), Double.parseDouble(m.group(3)));
                }
                return new Metrics(response.body(), samples);
            }
        }

        /** The sample of {@code name} with exactly these labels (name, value, name, value…). */
        double value(String name, String... labels) {
            Map<String, String> wanted = new TreeMap<>();
            for (int i = 0; i < labels.length; i += 2) wanted.put(labels[i], labels[i + 1]);
            String key = key(name, wanted);
            assertThat(samples).as("scraped samples").containsKey(key);
            return samples.get(key);
        }

        List<String> families() {
            return samples.keySet().stream().map(k -> k.replaceFirst("\\{.*", "")).distinct().toList();
        }

        private static Map<String, String> labels(String text) {
            Map<String, String> labels = new TreeMap<>();
            if (text != null) {
                Matcher m = LABEL.matcher(text);
                while (m.find()) labels.put(m.group(1), m.group(2));
            }
            return labels;
        }

        private static String key(String name, Map<String, String> labels) {
            return labels.isEmpty() ? name : name + labels;
        }
    }

    // --- helpers

    private MusterProcess run(Path manifest, Object... options) throws IOException {
        return processes.start(dir, "run", manifest, options);
    }

    private Path manifest(String yaml) {
        return new Manifests(dir).write("site.yaml", yaml);
    }

    private Path path(String name) {
        return dir.resolve(name);
    }

    private Path status() {
        return dir.resolve("status");
    }

    private List<String> statusLines() throws IOException {
        return Files.exists(status()) ? Files.readAllLines(status()) : List.of();
    }

    /** The status file's last line says converged. */
    private boolean converged() throws IOException {
        List<String> lines = statusLines();
        return !lines.isEmpty() && lines.getLast().equals("converged");
    }

    private void tamperAndAwaitRepair(Path file, String content) throws IOException {
        Files.writeString(file, "tampered\n");
        eventually().until(() -> Files.readString(file).equals(content));
    }

    private static String mode(Path file) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ConditionFactory eventually() {
        return Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).ignoreExceptions();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> doc, String key) {
        return (Map<String, Object>) doc.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> doc, String key) {
        return (List<Map<String, Object>>) doc.get(key);
    }

    private static Map<String, Object> resource(Map<String, Object> doc, String id) {
        return list(doc, "resources").stream().filter(r -> id.equals(r.get("id"))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id + " in " + doc.get("resources")));
    }

    private static long number(Map<String, Object> map, String key) {
        return ((Number) map.get(key)).longValue();
    }
}
