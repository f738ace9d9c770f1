package io.muster.engine.format.ccm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CCM manifest compiles into muster's graph with CCM's order, kinds and validation. */
class CcmFormatTest {
    @TempDir
    Path dir;

    private Graph compile(String yaml) throws ManifestException {
        return new Manifests(dir).compile(yaml);
    }

    /** The problems of a manifest that does not compile, each as "line:col: message". */
    private List<String> problems(String yaml) {
        try {
            compile(yaml);
        } catch (ManifestException e) {
            return e.problems().stream().map(CcmFormatTest::where).toList();
        }
        throw new AssertionError("compiled");
    }

    private static String where(Problem p) {
        return p.mark().line() + ":" + p.mark().column() + ": " + p.message();
    }

    @Test
    void resourcesRunInTheOrderWrittenAndAFailureDoesNotStopTheRest() throws Exception {
        Graph graph = compile("""
                ccm:
                  resources:
                    - exec:
                        - "echo one": {}
                        - "echo two": {}
                    - package: {name: zsh, ensure: present}
                """);
        assertThat(graph.ids()).containsExactly("exec#echo one", "exec#echo two", "package#zsh");
        assertThat(graph.edges()).containsExactly(
                new Edge("exec#echo one", "exec#echo two", EdgeReason.ORDER),
                new Edge("exec#echo two", "package#zsh", EdgeReason.ORDER));
    }

    @Test
    void failOnErrorMakesEachResourceRequireTheOneBefore() throws Exception {
        Graph graph = compile("""
                ccm:
                  fail_on_error: true
                  resources:
                    - exec: [{"echo one": {}}, {"echo two": {}}]
                """);
        assertThat(graph.edges()).containsExactly(new Edge("exec#echo one", "exec#echo two", EdgeReason.REQUIRE));
    }

    @Test
    void fileModesAreReadAsCcmReadsThemAndDirectoriesGainSearchBits() throws Exception {
        Graph graph = compile("""
                ccm:
                  resources:
                    - file:
                        - defaults: {owner: root, group: root, ensure: present}
                        - ROOT/a: {mode: 644}
                        - ROOT/b: {mode: 0o640}
                        - ROOT/c: {mode: "0600"}
                        - ROOT/d: {mode: 0644, ensure: directory}
                        - ROOT/e: {mode: "0o604", ensure: directory}
                """);
        assertThat(graph.vertices()).extracting(v -> v.params().raw("mode")).containsExactly("0644", "0640", "0600", "0755", "0705");
    }

    @Test
    void fileValidationFollowsCcmsModel() {
        assertThat(problems("""
                ccm:
                  resources:
                    - file:
                        - /srv/no-owner: {ensure: present, group: root, mode: "0644"}
                        - /srv/too-wide: {ensure: present, owner: root, group: root, mode: "1777"}
                        - /srv/not-octal: {ensure: present, owner: root, group: root, mode: "0986"}
                        - /srv/forced: {ensure: present, owner: root, group: root, mode: "0644", force: true}
                        - /srv/both: {ensure: present, owner: root, group: root, mode: "0644", content: x, source: y}
                        - /srv/no-ensure: {owner: root, group: root, mode: "0644"}
                        - relative/path: {ensure: absent}
                        - /srv/../up: {ensure: absent}
                        - /srv/typo: {ensure: absent, contents: x}
                """)).containsExactly(
                "4:11: file /srv/no-owner: owner cannot be empty",
                "5:76: file /srv/too-wide: mode '1777' exceeds maximum value 0777",
                "6:77: file /srv/not-octal: mode '0986' is not a valid octal number",
                "7:89: file /srv/forced: 'force: true' is only valid with 'ensure: absent', got 'ensure: present'",
                "8:100: file /srv/both: 'content' and 'source' are mutually exclusive",
                "9:11: file /srv/no-ensure: ensure is required; expected absent, directory, present",
                "10:11: file relative/path: file path must be absolute, got 'relative/path'",
                "11:11: file /srv/../up: file path must be canonical, got '/srv/../up'",
                "12:39: file /srv/typo: unknown property 'contents' (did you mean 'content'?); file takes alias, content, control,"
                        + " ensure, force, group, health_checks, mode, owner, provider, register_when_stable, require, source");
    }

    @Test
    void anAbsentFileNeedsNoAttributesAndMayBeForced() throws Exception {
        Graph graph = compile("""
                ccm:
                  resources:
                    - file: {name: ROOT/gone, ensure: absent, force: true}
                """);
        assertThat(graph.vertex("file#" + dir + "/gone").params().raw("force")).isEqualTo(true);
    }

    @Test
    void execRunsItsNameUnlessGivenACommandWithCcmsDurationsAndShell() throws Exception {
        Graph graph = compile("""
                ccm:
                  resources:
                    - exec:
                        - "/bin/true --flag": {timeout: 1m30s, returns: [0, 2]}
                        - build: {command: "make all", provider: shell, timeout: 30s, cwd: /tmp, logoutput: true}
                        - "/bin/long": {timeout: 1D2h}
                        - "/bin/forever": {}
                """);
        assertThat(graph.vertex("exec#/bin/long").params().raw("timeout")).as("choria fisk's days").isEqualTo(93600.0);
        assertThat(graph.vertex("exec#/bin/long").params().raw("kill_on_timeout")).as("CCM never kills it").isEqualTo(false);
        assertThat(graph.vertex("exec#/bin/forever").params().raw("timeout")).as("no limit, as in CCM").isEqualTo(0.0);
        assertThat(graph.vertex("exec#/bin/forever").params().raw("cwd")).as("CCM's runner runs in /").isEqualTo("/");
        var plain = graph.vertex("exec#/bin/true --flag").params();
        assertThat(plain.raw("command")).as("split as CCM splits it").isEqualTo(java.util.List.of("/bin/true", "--flag"));
        assertThat(plain.raw("timeout")).isEqualTo(90.0);
        assertThat(plain.raw("guards_on_refresh")).isEqualTo(false);
        var shell = graph.vertex("exec#build").params();
        assertThat(shell.raw("command")).isEqualTo("make all");
        assertThat(shell.raw("shell")).isEqualTo(true);
        assertThat(shell.raw("timeout")).isEqualTo(30.0);
        assertThat(shell.raw("logoutput")).isEqualTo(true);
    }

    @Test
    void execValidationFollowsCcmsModel() {
        assertThat(problems("""
                ccm:
                  resources:
                    - exec:
                        - "echo a": {timeout: 10}
                        - "echo b": {environment: ["NOVALUE=", "=x", "PLAIN"]}
                        - "echo c": {path: "/usr/bin:bin"}
                        - "echo d": {subscribe: [file]}
                        - "echo e": {provider: bash}
                """)).containsExactly(
                "4:31: exec echo a: timeout: expected a duration like 30s, 1m30s or 2h, got '10'",
                "5:36: exec echo b: invalid environment variable \"NOVALUE=\": empty value",
                "5:48: exec echo b: invalid environment variable \"=x\": empty key",
                "5:54: exec echo b: invalid environment variable \"PLAIN\": missing '='",
                "6:28: exec echo c: invalid path: \"bin\" is not an absolute path",
                "7:33: exec echo d: invalid subscribe format file",
                "8:32: exec echo e: provider: expected posix or shell, got 'bash'");
    }

    @Test
    void packagesServicesAndArchivesAreCheckedAsCcmChecksThem() {
        assertThat(problems("""
                ccm:
                  resources:
                    - package: [{"vim;rm": {ensure: present}}, {curl: {}}]
                    - service: [{nginx: {ensure: started}}]
                    - archive:
                        - /tmp/app.tar.gz: {ensure: present, url: "https://example.com/app.zip", owner: root, group: root,
                                            extract_parent: /opt/app}
                """)).containsExactly(
                "3:18: package vim;rm: package name contains dangerous characters: \"vim;rm\"",
                "3:49: package curl: ensure is required; expected present, absent, latest or a version",
                "4:34: service nginx: invalid ensure value 'started': expected running, stopped",
                "6:51: archive /tmp/app.tar.gz: url and name must have the same archive type: url is zip, name is tar.gz");
    }

    @Test
    void unknownKeysAndTypesAreRefusedWhereWritten() {
        assertThat(problems("""
                ccm:
                  resource: []
                  resources:
                    - files: [{/tmp/x: {}}]
                    - exec: [{"echo": {register_when_stable: []}}]
                other: 1
                """)).containsExactly(
                "2:3: unknown key 'ccm.resource' (did you mean 'resources'?); expected resources, fail_on_error, pre_message, post_message, resources_jet_file",
                "4:7: unknown resource type 'files' (did you mean 'file'?); CCM's types are file, exec, package, service, archive, scaffold, apply",
                "5:24: exec echo: register_when_stable is not supported: muster has no service registry to publish to",
                "6:1: unknown top-level key 'other' in a CCM manifest; expected ccm, data, hierarchy, overrides");
    }

    @Test
    void messagesComeFirstAndLastTheLastOnlyAfterEverythingSucceeded() throws Exception {
        Graph graph = compile("""
                ccm:
                  pre_message: starting
                  post_message: finished
                  resources:
                    - exec: [{"echo one": {}}]
                """);
        String pre = "noop#pre_message of " + dir.resolve("site.yaml");
        String post = "noop#post_message of " + dir.resolve("site.yaml");
        assertThat(graph.ids()).containsExactly(pre, "exec#echo one", post);
        assertThat(graph.vertex(pre).params().raw("comment")).isEqualTo("starting");
        assertThat(graph.edges()).contains(new Edge("exec#echo one", post, EdgeReason.REQUIRE), new Edge(pre, "exec#echo one", EdgeReason.ORDER));
    }

    @Test
    void aManifestWithoutResourcesIsRefused() {
        assertThatThrownBy(() -> compile("ccm: {pre_message: hi}\n")).isInstanceOf(ManifestException.class)
                .hasMessageContaining("manifest must contain resources");
    }

    @Test
    void templatesReadDataFactsAndTheEnvironmentWhenTheManifestIsRead() throws Exception {
        Graph graph = compile("""
                data:
                  service: web
                  port: 8080
                ccm:
                  pre_message: "Deploying {{ Data.service }} on {{ Facts.hostname }}"
                  resources:
                    - exec:
                        - "echo {{ Data.service | upper() }}":
                            timeout: "${ Data.port > 1000 ? '10s' : '1s' }"
                            cwd: "{{ Environ.HOME }}"
                """);
        assertThat(graph.ids()).contains("exec#echo WEB");
        assertThat(graph.vertex("exec#echo WEB").params().raw("timeout")).isEqualTo(10.0);
        assertThat(graph.vertex("exec#echo WEB").late()).as("CCM renders an exec's cwd when it runs").containsEntry("cwd", "{{ Environ.HOME }}");
        assertThat(graph.vertex("noop#pre_message of " + dir.resolve("site.yaml")).params().raw("comment")).isEqualTo("Deploying web on testhost");
    }

    @Test
    void aTemplateErrorNamesTheProperty() {
        assertThat(problems("""
                ccm:
                  resources:
                    - exec: [{"echo": {timeout: "{{ Data.missing.deeper }}"}}]
                """)).singleElement().asString().startsWith("3:33: exec echo: timeout: column ");
    }

    @Test
    void anApplyWithoutDataPassesTheParentsDataAndOneWithDataOnlyItsOwn() throws Exception {
        Manifests m = new Manifests(dir);
        m.write("lib/child.yaml", """
                data: {tier: child, region: own}
                ccm:
                  pre_message: not shown for a child, as in CCM
                  resources:
                    - exec: [{"echo {{ Data.tier }} {{ Data.region }}": {}}]
                """);
        m.write("other/child.yaml", """
                data: {tier: child, region: own}
                ccm:
                  resources:
                    - exec: [{"echo other {{ Data.tier }} {{ Data.region }}": {}}]
                """);
        Graph graph = m.compile("""
                data: {tier: parent}
                ccm:
                  resources:
                    - apply: [{lib/child.yaml: {}}]
                    - apply: [{other/child.yaml: {data: {region: given}}}]
                """);
        assertThat(graph.ids()).contains("exec#echo parent own", "exec#echo other child given");
        assertThat(graph.ids()).noneMatch(id -> id.startsWith("msg#"));
        assertThat(graph.edges()).contains(new Edge("apply#lib/child.yaml", "apply#other/child.yaml", EdgeReason.ORDER));
    }

    @Test
    void dataDirectivesInCommentsAreCheckedBeforeAnythingRuns() {
        assertThat(problems("""
                data:
                  # the account to run as
                  # @require
                  user: ""
                  listen: 300.1.2.3   # @validate isIPv4(value)
                  web:
                    # @validate isShellSafe(value)
                    command: "rm -rf /; echo"
                    # @validate isInt(value)
                    port: 8080
                  name: app # @validate value matches "^[a-z]+$"
                ccm:
                  resources:
                    - exec: [{"echo": {}}]
                """)).containsExactly(
                "4:3: key \"user\" is required but has no value",
                "5:3: key \"listen\" validation \"isIPv4(value)\" failed: isIPv4(): 300.1.2.3 is not an IPv4 address",
                "8:5: key \"web.command\" failed validation \"isShellSafe(value)\"");
    }

    @Test
    void theOrderWrittenIsTheWholeScheduleWithNoAutomaticEdgesAgainstIt() throws Exception {
        Graph graph = compile("""
                ccm:
                  resources:
                    - file:
                        - defaults: {owner: root, group: root}
                        - /srv/app/config.ini: {ensure: present, mode: "0644"}
                        - /srv/app: {ensure: directory, mode: "0755"}
                """);
        assertThat(graph.edges()).containsExactly(new Edge("file#/srv/app/config.ini", "file#/srv/app", EdgeReason.ORDER));
    }

    @Test
    void theDataSectionsAreCheckedAsCcmsSchemaChecksThem() {
        assertThat(problems("""
                hierarchy:
                  order: [default]
                  merge: Deep
                  levels: 2
                overrides:
                  default: 1
                ccm:
                  resources:
                    - exec: [{/bin/true: {environment: ["1ST=x", "OK_2=y", "{{ Data.name }}=z"], require: ["Exec#x"]}}]
                """)).containsExactlyInAnyOrder(
                "3:10: hierarchy.merge: expected first or deep, got the string 'Deep'",
                "4:3: unknown key 'hierarchy.levels'; expected order, merge",
                "6:12: overrides.default: expected a map of data, got the number 1",
                "9:41: exec /bin/true: invalid environment variable \"1ST=x\": the name must match [A-Za-z_][A-Za-z0-9_]*",
                "9:91: exec /bin/true: require: expected references like 'type#name', got 'Exec#x'");
        assertThat(problems("ccm:\n  resources: []\n")).containsExactly("2:3: manifest must contain resources (ccm.resources)");
    }

    @Test
    void referencesNameTheLastResourceRunBeforeByNameOrAliasAndOneToNothingRunYetStopsOrFails() throws Exception {
        Graph graph = compile("""
                ccm:
                  resources:
                    - exec:
                        - "echo one": {alias: one}
                        - "echo two": {require: ["exec#one"], subscribe: ["exec#later"]}
                        - "echo one": {}
                        - "echo three": {require: ["exec#echo one", "exec#never"], control: {if: "false"}}
                        - "echo five": {require: ["exec#echo two"]}
                        - "echo four": {require: ["exec#later"]}
                        - later: {}
                """);
        assertThat(graph.ids()).containsExactly("exec#echo one", "msg#exec#echo two", "exec#echo one (2)", "exec#echo three",
                "exec#echo five", "msg#run stopped at exec#echo four");
        assertThat(graph.edges()).as("a reference reaches what runs in the resource's place")
                .contains(new Edge("msg#exec#echo two", "exec#echo five", EdgeReason.REQUIRE));
        assertThat(graph.vertex("msg#exec#echo two").params().raw("message")).isEqualTo("no events found for exec#later");
        assertThat(graph.vertex("exec#echo one (2)").params().raw("command")).isEqualTo(List.of("echo", "one"));
        assertThat(graph.edges()).contains(new Edge("exec#echo one (2)", "exec#echo three", EdgeReason.REQUIRE));
        assertThat(CcmNames.isStop("msg#run stopped at exec#echo four")).isTrue();
    }

    @Test
    void aJetFileOfResourcesIsRenderedWithTheDataIntoTheResourceList() throws Exception {
        new Manifests(dir).write("resources.jet", """
                - exec:
                    - echo first: {}
                [[ range Data.packages ]]
                - package:
                    - [[ . ]]: {ensure: present}
                [[ end ]]
                """);
        Graph graph = compile("""
                data:
                  packages: [vim, git]
                ccm:
                  resources_jet_file: resources.jet
                """);
        assertThat(graph.ids()).containsExactly("exec#echo first", "package#vim", "package#git");
        assertThat(problems("ccm:\n  resources_jet_file: resources.jet\n  resources:\n    - exec: [{/bin/true: {}}]\n"))
                .containsExactly("2:3: jet_file and resources cannot be used together");
        new Manifests(dir).write("empty.jet", "[[ if false ]]nothing[[ end ]]\n");
        assertThat(problems("ccm:\n  resources_jet_file: empty.jet\n"))
                .containsExactly("2:23: resources jet template produced no output, check for syntax errors");
    }

    @Test
    void aJetScaffoldsTemplatesTakeIfAndRange() throws Exception {
        new Manifests(dir).write("site/hosts.conf", """
                [[ range i, h := data.hosts -]]
                host[[ i ]] = [[ h ]]
                [[ end -]]
                [[ if Data.tls ]]tls = on[[ else ]]tls = off[[ end ]]
                """);
        Graph graph = compile("""
                data:
                  hosts: [a, b]
                  tls: true
                ccm:
                  resources:
                    - scaffold: [{ROOT/out: {ensure: present, source: site}}]
                """);
        assertThat(graph.vertex("scaffold#" + dir.resolve("out")).params().raw("files"))
                .isEqualTo(java.util.Map.of("hosts.conf", "host0 = a\nhost1 = b\ntls = on\n"));
    }

    @Test
    void factsHaveCcmsHostInfoForHierarchiesAndForWhatRendersAtRunTime() throws Exception {
        Graph graph = compile("""
                hierarchy:
                  order:
                    - os:{{ lookup('facts.host.info.platformFamily') }}
                data:
                  package: httpd
                overrides:
                  os:debian:
                    package: apache2
                ccm:
                  resources:
                    - exec:
                        - "echo {{ Data.package }} on {{ Facts.host.info.hostname }}":
                            command: "echo {{ Facts.host.info.platform }} {{ Facts.host.info.platformVersion }}"
                """);
        assertThat(graph.ids()).containsExactly("exec#echo apache2 on testhost");
        var vertex = graph.vertex("exec#echo apache2 on testhost");
        assertThat(vertex.late()).containsKey("command");
        assertThat(vertex.scope().facts()).as("what the command reads when it runs")
                .containsEntry("host", java.util.Map.of("info", java.util.Map.of("hostname", "testhost", "os", "linux",
                        "platform", "debian", "platformFamily", "debian", "platformVersion", "12")));
    }

    @Test
    void aSubscribeIsARefreshEdgeThatAFailureDoesNotBlock() throws Exception {
        Graph graph = compile("""
                ccm:
                  resources:
                    - file: [{ROOT/app.conf: {ensure: present, owner: root, group: root, mode: "0644", content: x}}]
                    - service: [{app: {subscribe: ["file#ROOT/app.conf"]}}]
                """);
        String file = "file#" + dir.resolve("app.conf");
        assertThat(graph.edges()).as("one edge: the refresh orders them too").containsExactly(new Edge(file, "service#app", EdgeReason.REFRESH));
        assertThat(graph.vertex("service#app").params().raw("subscribe")).isNull();
        assertThat(EdgeReason.REFRESH.refreshes()).isTrue();
        assertThat(EdgeReason.REFRESH.blocksOnFailure()).isFalse();
    }
}
