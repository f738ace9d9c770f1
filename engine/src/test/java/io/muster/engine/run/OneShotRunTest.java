package io.muster.engine.run;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.engine.graph.Graph;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import io.muster.engine.world.MemoryWorld;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OneShotRunTest {
    @TempDir
    Path dir;

    @Test
    void aFailureSkipsItsDependentsNamingItAndTheRestStillRuns() throws Exception {
        Report report = new Manifests(dir).apply("""
                resources:
                  - exec:
                      - broken: {command: "false"}
                  - file:
                      - ROOT/after: {content: x, require: exec#broken}
                      - ROOT/later: {content: x, require: "file#ROOT/after"}
                      - ROOT/independent: {content: x}
                """);
        assertThat(resource(report, "exec#broken").status()).isEqualTo(Status.FAILED);
        ResourceReport after = resource(report, "file#" + dir + "/after");
        assertThat(after.status()).isEqualTo(Status.SKIPPED);
        assertThat(after.message()).isEqualTo("dependency exec#broken failed");
        assertThat(resource(report, "file#" + dir + "/later").message()).isEqualTo("dependency exec#broken failed");
        assertThat(resource(report, "file#" + dir + "/independent").status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("after")).doesNotExist();
        assertThat(report.detailedExitCode()).isEqualTo(6);
    }

    @Test
    void anExportInARunWithoutAFleetReachesNobodyAndSoChangesNothing() throws Exception {
        String yaml = """
                resources:
                  - file: [{ROOT/pool/web1: {content: "server 10.0.0.1:80\\n", meta: {export: {tags: [pool]}}}}]
                """;
        Manifests manifests = new Manifests(dir);
        for (int run = 0; run < 2; run++) {
            ResourceReport export = resource(manifests.apply(yaml), "file#" + dir + "/pool/web1");
            assertThat(export.status()).isEqualTo(Status.STABLE);
            assertThat(export.message()).isEqualTo("exported to no other host: this run has no fleet");
        }
        assertThat(dir.resolve("pool")).doesNotExist();
    }

    @Test
    void aFailureIsRetriedPerMetaRetry() throws Exception {
        Report report = new Manifests(dir).apply("""
                resources:
                  - exec:
                      - flaky: {command: "echo x >> ROOT/attempts; test $(wc -l < ROOT/attempts) -ge 3", shell: true, meta: {retry: 2, delay: 10}}
                      - hopeless: {command: "sh -c 'echo x >> ROOT/hopeless; false'", meta: {retry: 1}}
                """);
        assertThat(resource(report, "exec#flaky").status()).isEqualTo(Status.CHANGED);
        assertThat(Files.readAllLines(dir.resolve("attempts"))).hasSize(3);
        assertThat(resource(report, "exec#hopeless").status()).isEqualTo(Status.FAILED);
        assertThat(Files.readAllLines(dir.resolve("hopeless"))).hasSize(2);
    }

    @Test
    void dependenciesRunFirst() throws Exception {
        Report report = new Manifests(dir).apply("""
                resources:
                  - exec:
                      - second: {command: "sh -c 'test -e ROOT/first && touch ROOT/second'", require: exec#first}
                      - first: {command: "sh -c 'sleep 0.2; touch ROOT/first'"}
                """);
        assertThat(report.count(Status.FAILED)).isZero();
        assertThat(dir.resolve("second")).exists();
    }

    @Test
    void aChangeRefreshesSubscribersOnly() throws Exception {
        String yaml = """
                resources:
                  - file: [{ROOT/conf: {content: v1}}]
                  - exec:
                      - reload: {command: "sh -c 'echo reloaded >> ROOT/log'", refreshonly: true, subscribe: "file#ROOT/conf"}
                      - unrelated: {command: "sh -c 'echo ran >> ROOT/other'", refreshonly: true, require: "file#ROOT/conf"}
                """;
        Report first = new Manifests(dir).apply(yaml);
        assertThat(resource(first, "exec#reload").refreshed()).isTrue();
        assertThat(resource(first, "exec#reload").status()).isEqualTo(Status.CHANGED);
        assertThat(resource(first, "exec#unrelated").status()).isEqualTo(Status.STABLE);
        Report second = new Manifests(dir).apply(yaml);
        assertThat(resource(second, "exec#reload").status()).isEqualTo(Status.STABLE);
        assertThat(Files.readString(dir.resolve("log"))).isEqualTo("reloaded\n");
        assertThat(dir.resolve("other")).doesNotExist();
    }

    @Test
    void metaNoopAndControlSkipWithoutBlockingDependents() throws Exception {
        Report report = new Manifests(dir).apply("""
                resources:
                  - file:
                      - ROOT/noop: {content: x, meta: {noop: true}}
                      - ROOT/not-debian: {content: x, control: {unless: "facts.os.family == 'debian'"}}
                      - ROOT/after: {content: x, require: "file#ROOT/not-debian"}
                """);
        assertThat(resource(report, "file#" + dir + "/noop").status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("noop")).doesNotExist();
        assertThat(resource(report, "file#" + dir + "/not-debian").status()).isEqualTo(Status.SKIPPED);
        assertThat(resource(report, "file#" + dir + "/not-debian").message()).isEqualTo("control: unless 'facts.os.family == 'debian'' is true");
        assertThat(dir.resolve("after")).exists();
    }

    @Test
    void aNoopResourceThatWouldChangeDoesNotRefreshOneThatActs() throws Exception {
        Report report = new Manifests(dir).apply("""
                resources:
                  - file:
                      - ROOT/config: {content: x, meta: {noop: true}, notify: [exec#restart, exec#dry-restart]}
                  - exec:
                      - restart: {command: "touch ROOT/restarted", refreshonly: true}
                      - dry-restart: {command: "touch ROOT/dry", refreshonly: true, meta: {noop: true}}
                """);
        assertThat(resource(report, "file#" + dir + "/config").status()).isEqualTo(Status.CHANGED);
        assertThat(resource(report, "exec#restart").refreshed()).isFalse();
        assertThat(dir.resolve("restarted")).doesNotExist();
        assertThat(resource(report, "exec#dry-restart").refreshed()).as("noop to noop: it would refresh").isTrue();
        assertThat(dir.resolve("dry")).doesNotExist();
    }

    @Test
    void namedSemaphoresKeepResourcesFromOverlapping() throws Exception {
        // mkdir fails when the lock is held: an overlap is a failure
        Report report = new Manifests(dir).apply("""
                resources:
                  - exec:
                      - a: {command: "%1$s", shell: true, meta: {sema: [db]}}
                      - b: {command: "%1$s", shell: true, meta: {sema: [db]}}
                      - c: {command: "%1$s", shell: true, meta: {sema: ["db:1", other]}}
                """.formatted("mkdir ROOT/lock && sleep 0.2 && rmdir ROOT/lock"));
        assertThat(report.resources()).extracting(ResourceReport::status).containsOnly(Status.CHANGED);
    }

    @Test
    void planMarksConsumersOfEffectValuesUnresolvable() throws Exception {
        Report plan = new Manifests(dir).plan("""
                resources:
                  - exec: [{ip: {command: "echo 10.0.0.1"}}]
                  - file: [{ROOT/ip: {content: "{{ lookup('exec#ip.stdout') }}"}}]
                """);
        assertThat(resource(plan, "file#" + dir + "/ip").status()).isEqualTo(Status.UNRESOLVABLE);
        assertThat(plan.count(Status.UNRESOLVABLE)).isEqualTo(1);
        assertThat(plan.detailedExitCode()).isEqualTo(2);
    }

    @Test
    void whatReadsAnUnresolvableValueIsUnresolvableToo() throws Exception {
        Report plan = new Manifests(dir).plan("""
                resources:
                  - exec: [{ip: {command: "echo 10.0.0.1"}}]
                  - file:
                      - ROOT/ip: {content: "{{ lookup('exec#ip.stdout') }}"}
                      - ROOT/copy: {content: "{{ lookup('file#ROOT/ip.content') }}"}
                """);
        assertThat(resource(plan, "file#" + dir + "/copy").status()).isEqualTo(Status.UNRESOLVABLE);
        assertThat(plan.count(Status.FAILED)).isZero();
    }

    @Test
    void anApplyReportsItsChildrensOutcome() throws Exception {
        Manifests m = new Manifests(dir);
        m.write("lib/ok.yaml", "resources: [{file: [{ROOT/ok: {content: x}}]}]\n");
        m.write("lib/bad.yaml", "resources: [{exec: [{bad: {command: \"false\"}}]}]\n");
        Report report = m.apply("resources: [{apply: [lib/ok.yaml, lib/bad.yaml]}]\n");
        assertThat(resource(report, "apply#lib/ok.yaml").status()).isEqualTo(Status.CHANGED);
        assertThat(resource(report, "apply#lib/bad.yaml").error()).isEqualTo("child manifest had 1 failed resources");
        assertThat(resource(report, "exec#bad").manifest()).isEqualTo("lib/bad.yaml");
        assertThat(resource(report, "apply#lib/bad.yaml").manifest()).isNull();
    }

    @Test
    void independentResourcesRunInParallelUpToSema() throws Exception {
        Manifests m = new Manifests(dir);
        Graph graph = m.compile("""
                resources:
                  - exec:
                      - a: {command: "sh -c 'touch ROOT/a; while [ ! -e ROOT/b ]; do sleep 0.01; done'", timeout: 10}
                      - b: {command: "sh -c 'touch ROOT/b; while [ ! -e ROOT/a ]; do sleep 0.01; done'", timeout: 10}
                """);
        // each command waits for the other: this only completes when both run at once
        Report report = m.run(graph, false);
        assertThat(report.count(Status.CHANGED)).isEqualTo(2);
    }

    @Test
    void everyResourceRunsExactlyOnceAfterAllItsDependencies() throws Exception {
        // Fast, stable resources finishing while the roots are still being started once made a
        // dependent start twice and release its own dependents early.
        StringBuilder yaml = new StringBuilder("resources:\n  - file:\n      - ROOT/d: {ensure: directory}\n");
        for (int i = 0; i < 200; i++) yaml.append("      - ROOT/d/f").append(i).append(": {content: x}\n");
        yaml.append("  - exec:\n      - last: {command: \"true\", require: [");
        for (int i = 0; i < 200; i++) yaml.append(i == 0 ? "" : ", ").append("\"file#ROOT/d/f").append(i).append("\"");
        yaml.append("]}\n");
        Manifests m = new Manifests(dir);
        Graph graph = m.compile(yaml.toString());
        for (int round = 0; round < 20; round++) {
            java.util.List<String> order = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            Report report = new OneShotRun(graph, new RunOptions("h", false, 4, dir.resolve(".p"), false, false), r -> order.add(r.id())).run();
            assertThat(order).doesNotHaveDuplicates().hasSize(graph.size());
            assertThat(order.get(0)).isEqualTo("file#" + dir + "/d");
            assertThat(order.get(order.size() - 1)).isEqualTo("exec#last");
            assertThat(report.count(Status.FAILED)).isZero();
        }
    }

    @Test
    void aStopLetsWhatRunsFinishAndSkipsTheRestSayingWhy() throws Exception {
        Manifests m = new Manifests(dir);
        Graph graph = m.compile("""
                resources:
                  - exec:
                      - slow: {command: "touch ROOT/started; sleep 0.5; touch ROOT/finished", shell: true}
                      - flaky: {command: "echo x >> ROOT/attempts; exit 1", shell: true, meta: {retry: -1, delay: 60000}}
                  - file:
                      - ROOT/after: {content: x, require: exec#slow}
                """);
        OneShotRun run = new OneShotRun(graph, new RunOptions("h", false, 4, dir.resolve(".p"), false, false), r -> {});
        CompletableFuture<Report> report = CompletableFuture.supplyAsync(() -> {
            try {
                return run.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("started")) && Files.exists(dir.resolve("attempts")));

        run.stop("muster was stopped (SIGTERM)");

        Report done = report.get(10, java.util.concurrent.TimeUnit.SECONDS); // not the minute flaky would wait to retry
        assertThat(resource(done, "exec#slow").status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("finished")).exists();
        assertThat(resource(done, "exec#flaky").status()).as("its last attempt is reported, no other made").isEqualTo(Status.FAILED);
        assertThat(Files.readAllLines(dir.resolve("attempts"))).hasSize(1);
        ResourceReport after = resource(done, "file#" + dir + "/after");
        assertThat(after.status()).isEqualTo(Status.SKIPPED);
        assertThat(after.message()).isEqualTo("muster was stopped (SIGTERM) before it ran");
        assertThat(dir.resolve("after")).doesNotExist();
    }

    @Test
    void aResourcesDurationIsMeasuredOnTheRunsClock() throws Exception {
        FakeClock clock = new FakeClock();
        Graph graph = new Manifests(dir).compile("""
                resources:
                  - exec:
                      - waits: {command: "touch ROOT/started; while [ ! -e ROOT/go ]; do sleep 0.01; done", shell: true}
                """);
        OneShotRun run = new OneShotRun(graph, new RunOptions("h", false, 4, dir.resolve(".p"), false, false), new MemoryWorld("test"),
                r -> {}, clock, Thread.ofVirtual().factory());
        CompletableFuture<Report> report = CompletableFuture.supplyAsync(() -> {
            try {
                return run.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("started")));
        clock.advance(5, TimeUnit.SECONDS);
        Files.createFile(dir.resolve("go"));

        assertThat(resource(report.get(10, TimeUnit.SECONDS), "exec#waits").durationMs()).isEqualTo(5000);
    }
}
