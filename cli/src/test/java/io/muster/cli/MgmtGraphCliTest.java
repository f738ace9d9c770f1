package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * mgmt YAML graphs through the CLI, on real files and processes: every command accepts them, they converge with
 * mgmt's meaning of each key, and the mistakes real manifests showed stay fixed.
 */
class MgmtGraphCliTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final MusterProcesses processes = new MusterProcesses();

    private Path manifest(String yaml) {
        return new Manifests(dir).write("graph.yaml", yaml);
    }

    private static Cli apply(Path manifest, String... extra) {
        String[] args = new String[4 + extra.length];
        args[0] = "apply";
        args[1] = manifest.toString();
        args[2] = "--tmp-prefix";
        args[3] = "--detailed-exitcodes";
        System.arraycopy(extra, 0, args, 4, extra.length);
        return Cli.run((Object[]) args);
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private static ConditionFactory eventually() {
        return Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).ignoreExceptions();
    }

    @Test
    void aFileWithNoStateIsManagedWhereItExistsAndNeverCreated() throws IOException {
        Path graph = manifest("""
                graph: undefined-state
                resources:
                  file:
                  - {name: present, path: ROOT/present.conf, content: "wanted\\n", mode: 0600}
                  - {name: missing, path: ROOT/missing.conf, content: "wanted\\n"}
                  - {name: dir, path: ROOT/nodir/, mode: 0700}
                """);
        Files.writeString(dir.resolve("present.conf"), "drifted\n");

        Cli first = apply(graph);

        assertThat(first.exit()).as(first.err()).isEqualTo(2);
        assertThat(dir.resolve("present.conf")).hasContent("wanted");
        assertThat(mode(dir.resolve("present.conf"))).isEqualTo("rw-------");
        assertThat(dir.resolve("missing.conf")).doesNotExist();
        assertThat(dir.resolve("nodir")).doesNotExist();
        Cli second = apply(graph);
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(dir.resolve("missing.conf")).doesNotExist();
    }

    @Test
    void aGraphConvergesInEdgeOrderAndASecondApplyOnlyRunsTheUnguardedExec() throws IOException {
        Path graph = manifest("""
                graph: site
                comment: a web root and its files
                resources:
                  noop: [{name: start}]
                  file:
                  - {name: root, path: ROOT/www/, state: exists, mode: 0750}
                  - {name: index, path: ROOT/www/index.html, content: "<p>${not a template}</p>\\n", mode: 0640, owner: 0, state: exists}
                  - {name: stale, path: ROOT/www/old.html, state: absent}
                  exec:
                  - {name: stamp, cmd: "ls ROOT/www > ROOT/listing", shell: /bin/sh, ifcmd: "test -f ROOT/www/index.html", ifshell: /bin/sh}
                  - {name: count, cmd: "wc -l ROOT/listing", shell: '', timeout: 0, watchcmd: '', pollint: 0, state: present}
                edges:
                - {name: e1, from: {kind: noop, name: start}, to: {kind: file, name: root}}
                - {name: e2, from: {kind: File, name: root}, to: {kind: FILE, name: index}}
                - {name: e3, from: {kind: file, name: index}, to: {kind: exec, name: stamp}}
                - {name: e4, from: {kind: exec, name: stamp}, to: {kind: exec, name: count}}
                """);
        Files.createDirectories(dir.resolve("www"));
        Files.writeString(dir.resolve("www/old.html"), "old");

        Cli first = apply(graph);

        assertThat(first.exit()).as(first.err()).isEqualTo(2);
        assertThat(mode(dir.resolve("www"))).isEqualTo("rwxr-x---");
        assertThat(mode(dir.resolve("www/index.html"))).isEqualTo("rw-r-----");
        assertThat(dir.resolve("www/index.html")).hasContent("<p>${not a template}</p>");
        assertThat(dir.resolve("www/old.html")).doesNotExist();
        assertThat(dir.resolve("listing")).hasContent("index.html");
        Cli second = apply(graph, "--output", "json");
        assertThat(Manifests.json(second.out()).get("summary").toString()).contains("changed=2", "failed=0");
    }

    @Test
    void aSymbolicModeSetsTheClassesItNamesOnTheFileAsFoundAndOneThatAddsBitsIsRefusedAsMgmtRefusesIt() throws IOException {
        Path graph = manifest("""
                graph: modes
                resources:
                  file:
                  - {name: shared, path: ROOT/shared.conf, state: exists, mode: "g=rw"}
                  - {name: private, path: ROOT/private.conf, state: exists, content: "x", mode: "u=rw,go="}
                """);
        Files.writeString(dir.resolve("shared.conf"), "kept\n");
        Files.setPosixFilePermissions(dir.resolve("shared.conf"), PosixFilePermissions.fromString("rwx---r--"));

        Cli first = apply(graph);

        assertThat(first.exit()).as(first.err()).isEqualTo(2);
        assertThat(mode(dir.resolve("shared.conf"))).as("u and o as found, g set").isEqualTo("rwxrw-r--");
        assertThat(mode(dir.resolve("private.conf"))).isEqualTo("rw-------");
        Cli second = apply(graph);
        assertThat(second.exit()).as(second.out() + second.err()).isZero();

        Path adds = new Manifests(dir).write("adds.yaml", "graph: g\nresources:\n  file: [{name: f, path: /tmp/f, mode: u+x}]\n");
        Cli refused = Cli.run("validate", adds);
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.err()).contains(adds + ":3:40: file[f]: mode: 'u+x' adds or removes bits, which mgmt's file refuses");
    }

    @Test
    void aDirectoryWithRecurseAndNothingToCopyIsMadeWithItsParentsAndWithoutItFailsOnAMissingParent() {
        Path graph = manifest("""
                graph: dirs
                resources:
                  file:
                  - {name: deep, path: ROOT/a/b/c/, recurse: true, mode: 0750, state: exists}
                  - {name: shallow, path: ROOT/x/y/, state: exists}
                """);
        Cli run = apply(graph);
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(6); // changes and a failure
        assertThat(dir.resolve("a/b/c")).isDirectory();
        assertThat(run.out()).contains("file#shallow failed").contains("parent directory " + dir.resolve("x") + " does not exist");
    }

    @Test
    void everyCommandAcceptsAGraphAndErrorsNameTheLine() {
        Path graph = manifest("""
                graph: g
                resources:
                  file: [{name: f, path: ROOT/f, content: "x", state: exists}]
                  exec: [{name: e, cmd: "true"}]
                  msg: [{name: m, body: done}]
                edges:
                - {from: {kind: file, name: f}, to: {kind: exec, name: e}, notify: true}
                - {from: {kind: exec, name: e}, to: {kind: msg, name: m}, notify: true}
                """);
        assertThat(Cli.run("validate", graph).exit()).isZero();
        assertThat(Cli.run("graph", graph).out()).contains("\"file#f\" -> \"exec#e\" [label=\"before\"]")
                .contains("\"exec#e\" -> \"msg#m\" [label=\"notify\"]");
        Cli plan = Cli.run("plan", graph, "--tmp-prefix");
        assertThat(plan.exit()).as(plan.err()).isEqualTo(2); // changes pending
        assertThat(plan.out()).contains("file#f");
        assertThat(dir.resolve("f")).doesNotExist();

        Path broken = new Manifests(dir).write("broken.yaml", """
                graph: g
                resources:
                  file: [{name: f, state: exist}]
                  nspawn: [{name: c}]
                """);
        Cli invalid = Cli.run("validate", broken);
        assertThat(invalid.exit()).isNotZero();
        assertThat(invalid.err()).contains(broken + ":3:27: file[f]: state: expected exists or absent, got 'exist'")
                .contains(broken + ":4:3: resources: mgmt kind 'nspawn' is not supported by muster: it manages systemd-nspawn containers");
    }

    @Test
    void anExecWithAUserAndNoGroupRunsWithTheUsersPrimaryGroup() {
        // nobody's primary group is nogroup (65534); there is no group named nobody, so using the name fails
        Path graph = manifest("""
                graph: g
                resources:
                  exec:
                  - {name: as-nobody, cmd: 'test "$(id -u):$(id -g)" = "65534:65534"', shell: /bin/sh, user: nobody}
                """);
        Cli run = apply(graph);
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(run.out()).contains("exec#as-nobody changed executed");
    }

    @Test
    void anExecGetsItsEnvAloneAsMgmtGivesIt() throws IOException {
        Path out = dir.resolve("environment");
        Path graph = manifest("""
                graph: g
                resources:
                  exec:
                  - {name: bare, cmd: 'env > OUT', shell: /bin/sh, env: {GREETING: hi}}
                """.replace("OUT", out.toString()));
        Cli run = apply(graph);
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(Files.readAllLines(out)).as("the shell adds PWD; nothing of muster's").contains("GREETING=hi")
                .noneMatch(line -> line.startsWith("HOME=") || line.startsWith("PATH=") || line.startsWith("USER="));
    }

    @Test
    void aSourceDirectoryWithRecurseIsCopiedAsATree() throws IOException {
        Files.createDirectories(dir.resolve("src/conf.d"));
        Files.writeString(dir.resolve("src/app.conf"), "a\n");
        Files.writeString(dir.resolve("src/conf.d/extra.conf"), "b\n");
        Path graph = manifest("""
                graph: g
                resources:
                  file: [{name: tree, path: ROOT/dst/, source: ROOT/src/, recurse: true, force: true, state: exists}]
                """);
        Cli run = apply(graph);
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(dir.resolve("dst/app.conf")).hasContent("a");
        assertThat(dir.resolve("dst/conf.d/extra.conf")).hasContent("b");
    }

    @Test
    void underRunADirectoryMovedAwayAndMadeAgainEmptyGetsItsFilesBack() throws Exception {
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(dir.resolve("src/tree.conf"), "t\n");
        Path graph = manifest("""
                graph: g
                resources:
                  file:
                  - {name: conf, path: ROOT/etc/, state: exists}
                  - {name: main, path: ROOT/etc/main.conf, content: "m\\n", state: exists}
                  - {name: tree, path: ROOT/etc/tree/, source: ROOT/src/, recurse: true, state: exists}
                edges:
                - {from: {kind: file, name: conf}, to: {kind: file, name: main}}
                - {from: {kind: file, name: conf}, to: {kind: file, name: tree}}
                """);
        processes.start(dir, "run", graph);
        eventually().until(() -> Files.exists(dir.resolve("etc/main.conf")) && Files.exists(dir.resolve("etc/tree/tree.conf")));

        Files.move(dir.resolve("etc"), dir.resolve("etc.moved"));
        Files.createDirectory(dir.resolve("etc"));

        eventually().until(() -> Files.readString(dir.resolve("etc/main.conf")).equals("m\n")
                && Files.readString(dir.resolve("etc/tree/tree.conf")).equals("t\n"));
    }

    @Test
    void underRunATimerRerunsTheExecAfterItEveryInterval() throws Exception {
        Path graph = manifest("""
                graph: g
                resources:
                  timer: [{name: every-second, interval: 1}]
                  exec: [{name: tick, cmd: "echo tick >> ROOT/ticks", shell: /bin/sh}]
                edges: [{from: {kind: timer, name: every-second}, to: {kind: exec, name: tick}}]
                """);
        processes.start(dir, "run", graph);
        eventually().until(() -> Files.readAllLines(dir.resolve("ticks")).size() >= 3);
    }

    @Test
    void kvAppliesAndHostnameIsPlannedThroughTheCli() {
        // a plan only: applying would rename the host the tests run on
        Path hostname = new Manifests(dir).write("hostname.yaml", """
                graph: g
                resources:
                  hostname: [{name: host, hostname: mgmt-graph-test.example.com}]
                """);
        Cli plan = Cli.run("plan", hostname, "--tmp-prefix");
        assertThat(plan.exit()).as(plan.err()).isEqualTo(2);
        assertThat(plan.out()).contains("hostname#host").contains("static_hostname").contains("mgmt-graph-test.example.com");

        Path stages = manifest("""
                graph: g
                resources:
                  kv: [{name: stage, value: 3}, {name: lower, key: stage, value: 1, skiplessthan: true}]
                edges: [{from: {kind: kv, name: stage}, to: {kind: KV, name: lower}}]
                """);
        Cli apply = apply(stages);
        assertThat(apply.exit()).as(apply.err()).isEqualTo(2);
        assertThat(apply.out()).contains("kv#stage changed value").doesNotContain("kv#lower changed");
    }
}
