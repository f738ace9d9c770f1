package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestCompilerTest {
    @TempDir
    Path dir;

    private Manifests manifests() {
        return new Manifests(dir);
    }

    private List<String> problems(String yaml) {
        try {
            manifests().compile(yaml);
        } catch (ManifestException e) {
            return e.problems().stream().map(p -> p.mark().line() + ":" + p.mark().column() + ": " + p.message()).toList();
        }
        throw new AssertionError("expected the manifest to be rejected");
    }

    private static Object param(Graph g, String id, String property) {
        return g.vertex(id).params().raw(property);
    }

    @Test
    void hierarchyMergesOverridesByFactsAndExternalDataWins() throws Exception {
        String yaml = """
                data: {port: 80, pkg: none, opts: {a: 1, b: 1}}
                hierarchy:
                  order: ["host:${ facts.hostname }", "os:${ facts.os.family }", default]
                  merge: deep
                overrides:
                  host:testhost: {opts: {a: 2}}
                  os:debian: {pkg: apache2, opts: {a: 3, c: 3}}
                  default: {pkg: httpd, port: 81}
                resources:
                  - msg:
                      - m: {message: "${ data.pkg } ${ data.port } ${ data.opts.a }${ data.opts.b }${ data.opts.c }"}
                """;
        Graph g = manifests().compile(yaml);
        assertThat(param(g, "msg#m", "message")).isEqualTo("apache2 81 213");
        Graph external = manifests().compile(manifests().write("site.yaml", yaml), Map.of("port", 9090, "opts", Map.of("b", 7)));
        assertThat(param(external, "msg#m", "message")).isEqualTo("apache2 9090 273");
    }

    @Test
    void firstMergeTakesEachTopLevelKeyFromTheMostSpecificLevel() throws Exception {
        Graph g = manifests().compile("""
                data: {opts: {a: 1, b: 1}}
                hierarchy: {order: ["os:${ facts.os.family }", default]}
                overrides:
                  os:debian: {opts: {a: 2}}
                  default: {opts: {a: 3, b: 3}}
                resources:
                  - msg: [{m: {message: "${ data.opts.a } ${ lookup('data.opts.b', 'unset') }"}}]
                """);
        assertThat(param(g, "msg#m", "message")).isEqualTo("2 unset");
    }

    @Test
    void defaultsApplyToLaterEntriesOfTheirBlockOnly() throws Exception {
        Graph g = manifests().compile("""
                resources:
                  - file:
                      - ROOT/before: {}
                      - defaults: {mode: "0600"}
                      - ROOT/after: {}
                      - ROOT/own: {mode: "0640"}
                  - file:
                      - ROOT/other: {}
                  - file: {name: ROOT/direct, mode: "0700"}
                """);
        assertThat(param(g, "file#" + dir + "/before", "mode")).isNull();
        assertThat(param(g, "file#" + dir + "/after", "mode")).isEqualTo("0600");
        assertThat(param(g, "file#" + dir + "/own", "mode")).isEqualTo("0640");
        assertThat(param(g, "file#" + dir + "/other", "mode")).isNull();
        assertThat(param(g, "file#" + dir + "/direct", "mode")).isEqualTo("0700");
    }

    @Test
    void relationsBecomeEdgesWithTheirReason() throws Exception {
        Graph g = manifests().compile("""
                resources:
                  - msg:
                      - a: {message: a, before: msg#b}
                      - b: {message: b, notify: [msg#c]}
                      - c: {message: c, require: msg#a, alias: sea}
                      - d: {message: d, subscribe: sea}
                """);
        assertThat(g.edges()).containsExactlyInAnyOrder(
                new Edge("msg#a", "msg#b", EdgeReason.BEFORE),
                new Edge("msg#b", "msg#c", EdgeReason.NOTIFY),
                new Edge("msg#a", "msg#c", EdgeReason.REQUIRE),
                new Edge("msg#c", "msg#d", EdgeReason.SUBSCRIBE));
    }

    @Test
    void autoedgesLinkFilesToTheirNearestManagedDirectoryAndExecsToTheirCwd() throws Exception {
        Graph g = manifests().compile("""
                resources:
                  - file:
                      - ROOT/a: {ensure: directory}
                      - ROOT/a/b/c.txt: {content: x}
                      - ROOT/a/free.txt: {content: x, meta: {autoedge: false}}
                  - exec:
                      - run: {command: "true", cwd: ROOT/a}
                """);
        assertThat(g.edges()).containsExactlyInAnyOrder(
                new Edge("file#" + dir + "/a", "file#" + dir + "/a/b/c.txt", EdgeReason.AUTOEDGE),
                new Edge("file#" + dir + "/a", "exec#run", EdgeReason.AUTOEDGE));
    }

    @Test
    void anExecWhoseCommandWaitsForARunTimeValueStillComesAfterItsCwd() throws Exception {
        Graph g = manifests().compile("""
                resources:
                  - file: [{ROOT/a: {ensure: directory}}]
                  - exec:
                      - ip: {command: "echo 1"}
                      - run: {command: "echo {{ lookup('exec#ip.stdout') }}", cwd: ROOT/a}
                """);
        assertThat(g.edges()).containsExactlyInAnyOrder(
                new Edge("exec#ip", "exec#run", EdgeReason.LOOKUP),
                new Edge("file#" + dir + "/a", "exec#run", EdgeReason.AUTOEDGE));
    }

    @Test
    void lookupOfARunTimeValueAddsAnEdgeAndDefersTheProperty() throws Exception {
        Graph g = manifests().compile("""
                resources:
                  - exec: [{ip: {command: "echo 1"}}]
                  - file: [{ROOT/ip: {content: "{{ lookup('exec#ip.stdout') }}", mode: "0600"}}]
                  - msg: [{path: {message: "${ lookup('file#ROOT/ip.mode') }"}}]
                """);
        assertThat(g.edges()).containsExactly(new Edge("exec#ip", "file#" + dir + "/ip", EdgeReason.LOOKUP));
        assertThat(g.vertex("file#" + dir + "/ip").late()).containsKey("content");
        assertThat(param(g, "msg#path", "message")).isEqualTo("0600");
    }

    @Test
    void cyclesNameEveryResourceInOrder() {
        assertThat(problems("""
                resources:
                  - msg:
                      - a: {message: a, require: msg#c}
                      - b: {message: b, require: msg#a}
                      - c: {message: c, require: msg#b}
                """)).containsExactly("3:9: dependency cycle: msg#a -> msg#b -> msg#c -> msg#a");
    }

    @Test
    void reportsEveryProblemAtOnceWithPositions() {
        assertThat(problems("""
                resources:
                  - file:
                      - /tmp/x: {mdoe: "0644"}
                      - /tmp/y: {mode: 0644}
                      - relative: {}
                  - exec:
                      - e: {timeout: soon, require: file#/tmp/z}
                  - fiel:
                      - /tmp/q: {}
                """)).containsExactly(
                "3:18: file#/tmp/x: unknown property 'mdoe' (did you mean 'mode'?)",
                "4:24: file#/tmp/y: mode: write the mode as a quoted string like \"0644\"; the number 644 is ambiguous (YAML 1.2 reads 0644 as decimal 644)",
                "5:9: file#relative: path: expected an absolute path, got 'relative'",
                "7:22: exec#e: timeout: expected a number, got the string 'soon'",
                "7:37: exec#e: require: no resource 'file#/tmp/z' (did you mean 'file#/tmp/x'?); write kind#name",
                "8:5: unknown resource kind 'fiel' (did you mean 'file'?); known kinds: apply, document, exec, file, msg, noop, package");
    }

    @Test
    void missingRequiredPropertiesDuplicatesAndMetaparams() {
        assertThat(problems("""
                resources:
                  - msg:
                      - a: {message: a, meta: {noop: maybe, retry: -2, nop: true}}
                      - a: {message: again}
                      - b: {message: b, meta: {delay: soon, limit: 2, sema: "db:0", export: {to: "[web"}}}
                  - file:
                      - /tmp/d: {ensure: dir}
                """)).containsExactly(
                "3:38: msg#a: meta.noop: expected true or false, got the string 'maybe'",
                "3:52: msg#a: meta.retry: expected a whole number of retries, -1 for forever, got the number -2",
                "3:56: msg#a: meta: unknown metaparam 'nop' (did you mean 'noop'?); expected one of autoedge, autogroup, burst, delay, export, limit, noop, poll, realize, retry, reverse, rewatch, sema",
                "4:9: duplicate resource msg#a (first declared at line 3)",
                "5:39: msg#b: meta.delay: expected milliseconds between retries (0 or more), got the string 'soon'",
                "5:61: msg#b: meta.sema: expected a size of at least 1 after ':' in 'db:0'",
                "5:77: msg#b: meta.export: to: '[web' is not a valid glob: the '[' at character 1 is not closed by a ']'",
                "7:26: file#/tmp/d: ensure: expected one of present, absent, directory, got 'dir' (did you mean 'directory'?)");
    }

    @Test
    void collectBlocksAreCheckedWhereTheyAreWritten() {
        assertThat(problems("""
                resources: []
                collect:
                  - kind: fiel
                  - kind: file
                    from: ["[web"]
                  - kind: file
                    where: {contnet: x}
                  - {kind: file, allow: {paths: [relative/dir]}}
                  - {kind: file, allow: {kinds: [exce]}}
                  - {kind: file, tagz: [a], meta: {export: true}}
                  - just a string
                """)).containsExactly(
                "3:11: collect: kind: unknown resource kind 'fiel' (did you mean 'file'?); expected one of apply, document, exec, file, msg, noop, package",
                "5:11: collect: from: '[web' is not a valid glob: the '[' at character 1 is not closed by a ']'",
                "7:12: collect: where: file has no property 'contnet' (did you mean 'content'?)",
                "8:33: collect: allow.paths: expected absolute paths, got 'relative/dir'",
                "9:33: collect: allow.kinds: unknown resource kind 'exce' (did you mean 'exec'?)",
                "10:18: collect: unknown key 'tagz' (did you mean 'tags'?); expected kind, tags, from, where, allow, meta",
                "10:35: collect: meta.export: a collected resource is not exported again",
                "11:5: collect: expected a map like {kind: file, tags: [..]}, got the string 'just a string'");
    }

    @Test
    void anExportedResourceIsNeverGroupedWithResourcesThatRunHere() throws Exception {
        Graph g = manifests().compile("""
                resources:
                  - file:
                      - /tmp/x/a: {content: a, meta: {export: {to: ["lb*"], tags: pool}}}
                      - /tmp/x/b: {content: b}
                """);
        assertThat(g.vertex("file#/tmp/x/a").meta().export()).isEqualTo(new Vertex.Export(List.of("lb*"), List.of("pool")));
        assertThat(g.vertex("file#/tmp/x/a").meta().autogroup()).isFalse();
    }

    @Test
    void recvBindingsAreCheckedLikeLookups() {
        assertThat(problems("""
                resources:
                  - exec: [{ip: {command: "hostname -I"}}]
                  - file:
                      - /tmp/a: {recv: {contnet: exec#ip.stdout}}
                      - /tmp/b: {content: x, recv: {content: exec#ip.stdout}}
                      - /tmp/c: {recv: {content: "exec#ip"}}
                      - /tmp/d: {recv: {content: exec#ip.stdot}}
                """)).containsExactly(
                "4:25: file#/tmp/a: recv: no property 'contnet' (did you mean 'content'?) to receive into",
                "5:37: file#/tmp/b: recv: 'content' is also set directly; set it one way",
                "6:34: file#/tmp/c: recv.content: expected a value reference like 'exec#myip.stdout', got the string 'exec#ip'",
                "7:34: file#/tmp/d: content: lookup('exec#ip.stdot'): exec#ip has no field 'stdot' (did you mean 'stdout'?); it has command, exit_code, stderr, stdout");
    }

    @Test
    void aFiniteLimitNeedsABurst() {
        assertThat(problems("""
                resources:
                  - msg:
                      - a: {message: a, meta: {limit: 0.5}}
                      - b: {message: b, meta: {limit: 0.5, burst: 1, retry: -1, delay: 100, poll: 5, sema: [db, "io:2"]}}
                """)).containsExactly(
                "3:39: msg#a: meta.limit: a finite limit needs meta.burst of at least 1 (how many runs may happen at once)");
    }

    @Test
    void enumValuesSuggestTheClosest() {
        assertThat(problems("""
                resources:
                  - file:
                      - /tmp/d: {ensure: dirctory}
                """)).containsExactly("3:26: file#/tmp/d: ensure: expected one of present, absent, directory, got 'dirctory' (did you mean 'directory'?)");
    }

    @Test
    void lookupsOfMissingResourcesOrFieldsAreCompileErrors() {
        assertThat(problems("""
                resources:
                  - exec: [{ip: {command: "echo 1"}}]
                  - msg:
                      - a: {message: "{{ lookup('exec#ipp.stdout') }}"}
                      - b: {message: "{{ lookup('exec#ip.stdot') }}"}
                """)).containsExactly(
                "4:22: msg#a: message: lookup('exec#ipp.stdout'): no resource exec#ipp (did you mean 'exec#ip'?); expected kind#name.field",
                "5:22: msg#b: message: lookup('exec#ip.stdot'): exec#ip has no field 'stdot' (did you mean 'stdout'?); it has command, exit_code, stderr, stdout");
    }

    @Test
    void controlConditionsAreCheckedAtCompileTime() {
        assertThat(problems("""
                resources:
                  - msg:
                      - a: {message: a, control: {if: "facts.os.famly == 'debian'"}}
                      - b: {message: b, control: {when: "true"}}
                """)).containsExactly(
                "3:39: msg#a: control.if: unknown name 'facts.os.famly' (did you mean 'facts.os.family'?)",
                "4:35: msg#b: control: unknown key 'when'; expected if, unless");
    }

    @Test
    void structuralMistakesAreExplained() {
        assertThat(problems("resourses: []\n")).containsExactly(
                "1:1: unknown top-level key 'resourses' (did you mean 'resources'?); expected data, hierarchy, overrides, resources, nodes, collect");
        assertThat(problems("resources:\n  - file:\n      /tmp/a: {}\n")).containsExactly(
                "3:7: file: expected a list of {name: properties} entries, or a map with a 'name'");
        assertThatThrownBy(() -> manifests().compile("- a\n- b\n")).isInstanceOf(ManifestException.class)
                .extracting(e -> ((ManifestException) e).problems().get(0)).extracting(Problem::message)
                .isEqualTo("expected a manifest map with a 'resources:' list, got a list");
    }
}
