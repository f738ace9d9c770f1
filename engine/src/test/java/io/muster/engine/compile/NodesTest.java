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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code nodes:} section: which manifests each host of the fleet gets. */
class NodesTest {
    @TempDir
    Path dir;

    private Manifests m;

    @BeforeEach
    void childManifests() {
        m = new Manifests(dir);
        for (String role : List.of("web", "db", "common", "fallback", "lb")) {
            m.write(role + ".yaml", "resources: [{noop: [" + role + "]}]\n");
        }
    }

    private List<String> idsFor(String host, Path site) throws ManifestException {
        return m.compileFor(host, Manifests.FACTS, site).vertices().stream().map(Vertex::id).toList();
    }

    @Test
    void aGlobMatchesTheWholeNameAndItsStarCrossesDots() throws Exception {
        Path site = m.write("site.yaml", """
                nodes:
                  web*: web.yaml
                  db-?.example.com: [db.yaml]
                  "[ab]*": lb.yaml
                  "[!a-z]*": common.yaml
                """);
        assertThat(idsFor("web1.example.com", site)).containsExactly("apply#web.yaml", "noop#web");
        assertThat(idsFor("db-1.example.com", site)).containsExactly("apply#db.yaml", "noop#db");
        assertThat(idsFor("db-12.example.com", site)).as("? is one character").isEmpty();
        assertThat(idsFor("b2", site)).containsExactly("apply#lb.yaml", "noop#lb");
        assertThat(idsFor("9lives", site)).containsExactly("apply#common.yaml", "noop#common");
        assertThat(idsFor("myweb1", site)).as("a glob matches the whole name").isEmpty();
        assertThat(idsFor("wEB1", site)).as("names are matched case-sensitively, as Salt matches minion ids").isEmpty();
    }

    @Test
    void aRegexBetweenSlashesMustMatchTheWholeName() throws Exception {
        Path site = m.write("site.yaml", """
                nodes:
                  /web\\d+/: web.yaml
                  /(db|lb)-[0-9]+\\.example\\.com/: db.yaml
                """);
        assertThat(idsFor("web12", site)).containsExactly("apply#web.yaml", "noop#web");
        assertThat(idsFor("web12.example.com", site)).isEmpty();
        assertThat(idsFor("lb-3.example.com", site)).containsExactly("apply#db.yaml", "noop#db");
    }

    @Test
    void everyMatchAddsItsManifestsInTheSectionsOrderAndDefaultOnlyWhenNoneMatched() throws Exception {
        Path site = m.write("site.yaml", """
                nodes:
                  default: fallback.yaml
                  "*.example.com": [common.yaml]
                  web*: [web.yaml, common.yaml]
                  /web1.*/: [lb.yaml, web.yaml]
                """);
        assertThat(idsFor("web1.example.com", site)).as("a manifest listed twice for a host is applied once, where first listed")
                .containsExactly("apply#common.yaml", "noop#common", "apply#web.yaml", "noop#web", "apply#lb.yaml", "noop#lb");
        assertThat(idsFor("db1.example.com", site)).containsExactly("apply#common.yaml", "noop#common");
        assertThat(idsFor("laptop", site)).containsExactly("apply#fallback.yaml", "noop#fallback");
    }

    @Test
    void aHostMatchingNothingWithoutDefaultHasAnEmptyGraph() throws Exception {
        Path site = m.write("site.yaml", "nodes: {web*: web.yaml}\n");
        assertThat(m.compileFor("db1", Manifests.FACTS, site).size()).isZero();
    }

    @Test
    void theManifestsAreAppliesWithTheirUsualRulesBesideTheManifestsOwnResources() throws Exception {
        m.write("roles/web.yaml", """
                data: {port: 80}
                resources:
                  - noop: ["web-${ data.port }"]
                  - apply: [../common.yaml]
                """);
        Path site = m.write("site.yaml", """
                data: {port: 8080}
                resources:
                  - noop: [{announce: {subscribe: apply#roles/web.yaml}}]
                nodes:
                  web*: roles/web.yaml
                """);
        Graph graph = m.compileFor("web1", Manifests.FACTS, site);
        assertThat(graph.ids()).containsExactly("noop#announce", "apply#roles/web.yaml", "noop#web-80", "apply#../common.yaml", "noop#common");
        assertThat(graph.vertex("noop#common").origin().chain()).containsExactly("site.yaml", "roles/web.yaml", "common.yaml");
        assertThat(graph.edges()).contains(new Edge("apply#roles/web.yaml", "noop#announce", EdgeReason.SUBSCRIBE),
                new Edge("noop#web-80", "apply#roles/web.yaml", EdgeReason.CHILD));

        Path same = m.write("twice.yaml", "resources: [{apply: [web.yaml]}]\nnodes: {web*: web.yaml}\n");
        assertThatThrownBy(() -> m.compileFor("web1", Manifests.FACTS, same)).hasMessageContaining(
                "twice.yaml:2:15: duplicate resource apply#web.yaml (first declared at line 1)");
    }

    @Test
    void withoutAHostNameTheLocalFqdnFactDecides() throws Exception {
        Graph graph = m.compile("nodes: {testhost.example.com: web.yaml, default: db.yaml}\n");
        assertThat(graph.ids()).containsExactly("apply#web.yaml", "noop#web");
    }

    @Test
    void hostDataComesThroughTheHierarchyWithTheGivenFacts() throws Exception {
        m.write("web.yaml", """
                data: {motd: plain}
                hierarchy: {order: ["host:${ facts.hostname }", "role:${ facts.role }", default]}
                overrides:
                  host:web1: {motd: "web1 special"}
                  role:web: {motd: "a ${ facts.role } server"}
                resources:
                  - noop: [{motd: {comment: "${ data.motd }"}}]
                """);
        Path site = m.write("site.yaml", "nodes: {web*: web.yaml}\n");
        Graph first = m.compileFor("web1", Map.of("hostname", "web1", "role", "web"), site);
        Graph second = m.compileFor("web2", Map.of("hostname", "web2", "role", "web"), site);
        Graph third = m.compileFor("web3", Map.of("hostname", "web3", "role", "cache"), site);
        assertThat(List.of(first, second, third)).extracting(g -> g.vertex("noop#motd").params().raw("comment"))
                .containsExactly("web1 special", "a web server", "plain");
    }

    @Test
    void badPatternsAndValuesAreReportedWithTheirPlaceWhateverTheHost() {
        Path site = m.write("site.yaml", """
                nodes:
                  /[a-/: web.yaml
                  web[12: web.yaml
                  "[z-a]*": web.yaml
                  "": web.yaml
                  db*: {path: db.yaml}
                  lb*: [lb.yaml, 3, null]
                  default: missing.yaml
                resources: []
                """);
        assertThatThrownBy(() -> m.compileFor("mail1", Manifests.FACTS, site)).isInstanceOfSatisfying(ManifestException.class,
                e -> assertThat(e.problems()).extracting(Problem::toString).containsExactly(
                        site + ":2:3: nodes: '/[a-/' is not a valid regular expression: Illegal character range near character 5;"
                                + " expected a host-name glob (web*, db-?.example.com, [ab]*), a /regex/ or default",
                        site + ":3:3: nodes: 'web[12' is not a valid glob: the '[' at character 4 is not closed by a ']'; expected a"
                                + " host-name glob (web*, db-?.example.com, [ab]*), a /regex/ or default",
                        site + ":4:3: nodes: '[z-a]*' is not a valid glob: Illegal character range; expected a host-name glob"
                                + " (web*, db-?.example.com, [ab]*), a /regex/ or default",
                        site + ":5:3: nodes: '' is not a pattern: it is empty; expected a host-name glob (web*, db-?.example.com,"
                                + " [ab]*), a /regex/ or default",
                        site + ":6:8: nodes.db*: expected a manifest path (relative to this manifest) or a list of them, got a map",
                        site + ":7:18: nodes.lb*: expected a manifest path (relative to this manifest) or a list of them, got the number 3",
                        site + ":7:21: nodes.lb*: expected a manifest path (relative to this manifest) or a list of them, got null",
                        site + ":8:12: apply#missing.yaml: no manifest at " + dir.resolve("missing.yaml")));
        assertThatThrownBy(() -> m.compile("nodes: [web*]\n")).hasMessageEndingWith(
                "site.yaml:1:8: nodes: expected a map of host-name patterns to manifests, got a list");
    }
}
