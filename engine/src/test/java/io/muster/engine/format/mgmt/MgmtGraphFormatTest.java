package io.muster.engine.format.mgmt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An mgmt YAML graph compiles into muster's graph with mgmt's meaning of each key. */
class MgmtGraphFormatTest {
    @TempDir
    Path dir;

    private Graph compile(String yaml) throws ManifestException {
        return new Manifests(dir).compile(yaml);
    }

    private Map<String, Object> params(Graph g, String id) {
        return g.vertex(id).params().values();
    }

    private String errors(String yaml) {
        try {
            compile(yaml);
        } catch (ManifestException e) {
            return e.getMessage();
        }
        throw new AssertionError("compiled without an error");
    }

    @Test
    void resourcesKeyedByKindBecomeMusterKindsWithMgmtNames() throws Exception {
        Graph g = compile("""
                graph: web
                comment: ignored, as mgmt ignores it
                resources:
                  noop: [{name: start}]
                  pkg: [{name: nginx, state: newest}, {name: telnet, state: uninstalled, meta: {autogroup: false}}, {name: curl, meta: {autogroup: false}}]
                  svc: [{name: nginx, state: running, startup: enabled}]
                  user: [{name: app, uid: 1500, group: www-data, groups: [adm], homedir: /srv/app, state: exists}]
                  group: [{name: ops, gid: 1600, state: exists}]
                  msg: [{name: hi, body: "deployed", priority: Warning}]
                  print: [{name: p1, msg: "printed"}]
                """);
        assertThat(g.ids()).containsExactlyInAnyOrder("noop#start", "package#nginx", "package#telnet", "package#curl",
                "service#nginx", "user#app", "group#ops", "msg#hi", "msg#p1");
        assertThat(params(g, "package#nginx")).containsEntry("ensure", "latest");
        assertThat(params(g, "package#telnet")).containsEntry("ensure", "absent");
        assertThat(params(g, "package#curl")).containsEntry("ensure", "present");
        assertThat(params(g, "service#nginx")).containsEntry("ensure", "running").containsEntry("enable", "true");
        assertThat(params(g, "user#app")).containsEntry("uid", "1500").containsEntry("gid", "www-data")
                .containsEntry("groups", List.of("adm")).containsEntry("home", "/srv/app");
        assertThat(params(g, "group#ops")).containsEntry("gid", "1600");
        assertThat(params(g, "msg#hi")).containsEntry("message", "deployed").containsEntry("level", "warn");
        assertThat(params(g, "msg#p1")).containsEntry("message", "printed");
    }

    @Test
    void aFileTakesMgmtsPathModeOwnerAndDirectoryRules() throws Exception {
        Graph g = compile("""
                graph: files
                resources:
                  file:
                  - {name: conf, path: ROOT/app.conf, content: "port ${port} {{ .Port }}\\n", mode: 0741, owner: 1, state: exists}
                  - {name: ROOT/data/, state: exists, mode: "755"}
                  - {name: tree, path: ROOT/copy/, source: ROOT/src/, recurse: true, state: exists}
                  - {name: deep, path: ROOT/a/b/c/, recurse: true, state: exists}
                  - {name: gone, path: ROOT/old, state: absent}
                  - {name: link, path: ROOT/current, source: ROOT/app.conf, symlink: true, state: exists}
                """);
        assertThat(params(g, "file#conf")).containsEntry("mode", "0741").containsEntry("owner", "1")
                .containsEntry("content", "port ${port} {{ .Port }}\n").containsEntry("path", dir + "/app.conf");
        assertThat(params(g, "file#" + dir + "/data")).containsEntry("ensure", "directory").containsEntry("mode", "0755");
        assertThat(params(g, "file#tree")).containsEntry("source", dir + "/src/").containsEntry("recurse", true);
        assertThat(params(g, "file#deep")).containsEntry("ensure", "directory").containsEntry("parents", true).doesNotContainKey("recurse");
        assertThat(params(g, "file#gone")).containsEntry("ensure", "absent");
        assertThat(params(g, "file#link")).containsEntry("ensure", "link").containsEntry("target", dir + "/app.conf");
    }

    @Test
    void whatMgmtsFileRefusesIsRefusedAtTheKeyThatBreaksIt() {
        String errors = errors("""
                graph: g
                resources:
                  file:
                  - {name: a, path: /tmp/d/, content: "x", state: exists}
                  - {name: b, path: /tmp/e/, source: /tmp/src/, state: exists}
                  - {name: c, path: /tmp/f, source: /etc/hosts, recurse: true, state: exists}
                  - {name: d, path: /tmp/g, content: "x", state: absent}
                  - {name: e, path: /tmp/h, dirname: /tmp, basename: /x}
                  - {name: f, path: /tmp/l, source: /etc/hosts, symlink: true, content: "x"}
                """);
        assertThat(errors).contains("site.yaml:4:39: file[a]: content: a directory (a path ending in /) has no content")
                .contains("site.yaml:5:38: file[b]: source: a source directory is copied only with recurse: true")
                .contains("site.yaml:6:58: file[c]: recurse: a single file is copied without recurse")
                .contains("site.yaml:7:38: file[d]: content: does not go with state: absent")
                .contains("site.yaml:8:38: file[e]: dirname: must end with a slash, got '/tmp'")
                .contains("site.yaml:8:54: file[e]: basename: must not start with a slash, got '/x'")
                .contains("site.yaml:9:73: file[f]: content: a symlink has no content")
                .doesNotContain("file#b");
    }

    @Test
    void aGuardsOwnWorkingDirectoryIsRefusedUnlessItIsTheExecs() throws Exception {
        Graph g = compile("graph: g\nresources:\n  exec:\n  - {name: same, cmd: 'true', cwd: /tmp, ifcmd: 'true', ifcwd: /tmp}\n");
        assertThat(params(g, "exec#same")).containsEntry("cwd", "/tmp");
        assertThat(errors("graph: g\nresources:\n  exec:\n  - {name: own, cmd: 'true', ifcmd: 'true', ifcwd: /srv}\n"))
                .contains("site.yaml:4:52: exec[own]: ifcwd: not supported by muster: a guard or watch command runs in the exec's cwd (unset)");
    }

    @Test
    void anExecRunsThroughItsShellOrSplitAtWhiteSpace() throws Exception {
        Graph g = compile("""
                graph: cmds
                resources:
                  exec:
                  - {name: plain, cmd: "echo  hello $HOME", shell: '', ifcmd: "test -d /tmp", pollint: 0, state: present}
                  - {name: bash, cmd: "echo $HOME > /dev/null", shell: /bin/bash, nifcmd: "true", nifshell: /bin/sh}
                  - {name: args, cmd: printf, args: ["%s", "a b"], user: nobody, watchcmd: "sleep 60", timeout: 5}
                """);
        assertThat(params(g, "exec#plain")).containsEntry("command", List.of("echo", "hello", "$HOME"))
                .containsEntry("onlyif", List.of("test", "-d", "/tmp")).containsEntry("timeout", 0.0);
        assertThat(params(g, "exec#bash")).containsEntry("command", List.of("/bin/bash", "-c", "echo $HOME > /dev/null"))
                .containsEntry("unless", List.of("/bin/sh", "-c", "true"));
        assertThat(params(g, "exec#args")).containsEntry("command", List.of("printf", "%s", "a b"))
                .containsEntry("user", "nobody").doesNotContainKey("group").containsEntry("watchcmd", List.of("sleep", "60"))
                .containsEntry("timeout", 5.0);
    }

    @Test
    void edgesOrderAndNotifyComparingKindsWithoutCase() throws Exception {
        Graph g = compile("""
                graph: chain
                resources:
                  file: [{name: f, path: ROOT/f, content: "x", state: exists}]
                  exec: [{name: e, cmd: "true"}]
                  svc: [{name: s}]
                edges:
                - {name: e1, from: {kind: FILE, name: f}, to: {kind: Exec, name: e}}
                - {name: e2, from: {kind: file, name: f}, to: {kind: svc, name: s}, notify: true}
                - {name: e3, from: {kind: svc, name: s}, to: {kind: exec, name: e}, notify: true}
                """);
        // mgmt's exec takes no refresh: its notify edge only orders
        assertThat(g.edges()).contains(new Edge("file#f", "exec#e", EdgeReason.BEFORE), new Edge("file#f", "service#s", EdgeReason.NOTIFY),
                new Edge("service#s", "exec#e", EdgeReason.BEFORE));
    }

    @Test
    void metaIsHonouredAndAnExportIsMarked() throws Exception {
        Graph g = compile("""
                graph: meta
                resources:
                  file:
                  - name: f
                    path: ROOT/f
                    meta: {noop: true, retry: 3, delay: 500, poll: 5, limit: 0.5, burst: 2, sema: ['lock:1'], autoedge: false, autogroup: false, rewatch: true, realize: true, reverse: true, hidden: true}
                  - {name: "@@shared", path: ROOT/shared, content: "x"}
                collect:
                - {kind: file, pattern: ROOT/}
                """);
        var meta = g.vertex("file#f").meta();
        assertThat(meta.noop()).isTrue();
        assertThat(meta.retry()).isEqualTo(3);
        assertThat(meta.delayMs()).isEqualTo(500);
        assertThat(meta.pollSeconds()).isEqualTo(5);
        assertThat(meta.limit()).isEqualTo(0.5);
        assertThat(meta.burst()).isEqualTo(2);
        assertThat(meta.sema()).containsExactly("lock:1");
        assertThat(meta.autoedge()).isFalse();
        assertThat(meta.rewatch()).isTrue();
        assertThat(meta.realize()).isTrue();
        assertThat(meta.reverse()).isTrue();
        assertThat(g.vertex("file#shared").meta().exported()).isTrue();
        assertThat(g.collects()).hasSize(1);
    }

    @Test
    void mistakesAreReportedAtTheirLineAndColumn() {
        String errors = errors("""
                graph: bad
                resources:
                  virt:
                  - name: vm1
                  file:
                  - {name: f, path: /tmp/f, state: exist}
                  exec:
                  - {name: e, cmd: ls, ifequals: "x"}
                  - {name: nocmd}
                edges:
                - {from: {kind: file, name: nosuch}, to: {kind: exec, name: e}}
                """);
        assertThat(errors).contains("site.yaml:3:3: resources: mgmt kind 'virt' is not supported by muster: it manages virtual machines")
                .contains("site.yaml:6:36: file[f]: state: expected exists or absent, got 'exist'")
                .contains("site.yaml:8:34: exec[e]: ifequals: not supported by muster")
                .contains("site.yaml:9:5: exec[nocmd]: cmd: the command is missing")
                .contains("site.yaml:11:10: edges: from: no resource of kind 'file' named 'nosuch' in this graph");
    }

    @Test
    void cloudAndContainerKindsAreRefusedByName() {
        assertThatThrownBy(() -> compile("graph: g\nresources:\n  nspawn: [{name: c}]\n  aws:ec2: [{name: m}]\n  augeas: [{name: a}]\n"))
                .hasMessageContaining("mgmt kind 'nspawn' is not supported").hasMessageContaining("mgmt kind 'aws:ec2' is not supported")
                .hasMessageContaining("mgmt kind 'augeas' is not supported");
        assertThatThrownBy(() -> compile("graph: g\nresources:\n  bmc:power: [{name: c}]\n"))
                .hasMessageContaining("mgmt kind 'bmc:power' is not supported by muster; the kinds it runs are exec, file, group");
    }

    @Test
    void anEmptyGraphNameIsAnError() {
        assertThatThrownBy(() -> compile("graph: ''\nresources: {}\n")).hasMessageContaining("site.yaml:1:8: graph: expected the graph's name");
    }

    @Test
    void symbolicModesWithEqualsPassAsWrittenAndYaml11BooleansAreBooleans() throws Exception {
        Graph g = compile("""
                graph: g
                resources:
                  file:
                  - {name: a, path: /tmp/a, mode: "u=rwx,g=rx,o="}
                  - {name: b, path: /tmp/b, mode: "g=rw", force: yes}
                  - {name: c, path: /tmp/c, mode: "ug=rws,o=t", meta: {noop: on}}
                  - {name: c, path: /tmp/c, mode: "ug=rws,o=t", meta: {noop: on}}
                """);
        assertThat(params(g, "file#a")).containsEntry("mode", "u=rwx,g=rx,o=");
        assertThat(params(g, "file#b")).containsEntry("mode", "g=rw").containsEntry("force", true);
        assertThat(params(g, "file#c")).containsEntry("mode", "ug=rws,o=t");
        assertThat(g.vertex("file#c").meta().noop()).isTrue();
        assertThat(errors("graph: g\nresources:\n  file:\n  - {name: d, path: /tmp/d, mode: \"u+x\"}\n  - {name: d, path: /tmp/e}\n"))
                .contains("site.yaml:4:35: file[d]: mode: 'u+x' adds or removes bits, which mgmt's file refuses (it takes '=' only)")
                .contains("site.yaml:5:12: resources: file: a second, different resource named 'd'");
        assertThat(errors("graph: g\nresources:\n  file:\n  - {name: d, path: /tmp/d, mode: \"a=r,u=w\"}\n"))
                .contains("site.yaml:4:35: file#d: mode: expected an octal mode like \"0644\" or a symbolic one like \"u=rwx,go=rx\","
                        + " got 'a=r,u=w' (a clause for every class (a, or no class) must be the only clause)");
    }
}
