package io.muster.engine.run;

import static io.muster.engine.testing.FakePackageKind.transactions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.engine.graph.Graph;
import io.muster.engine.graph.GraphFormat;
import io.muster.engine.graph.Vertex;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.JsonReport;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.report.TextReport;
import io.muster.engine.resource.Kinds;
import io.muster.engine.testing.FakePackageKind;
import io.muster.engine.testing.Manifests;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Autogroup, with a package kind whose transactions show which resources converged together. */
class AutoGroupTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private Manifests manifests;
    private Path db;
    private LiveRun live;

    @BeforeEach
    void packageDatabase() throws Exception {
        manifests = new Manifests(dir, Kinds.installed().with(new FakePackageKind()));
        db = Files.createDirectories(dir.resolve("db"));
    }

    @AfterEach
    void stop() throws Exception {
        if (live != null) live.close();
    }

    private static String scrape(Metrics metrics) throws Exception {
        try (Metrics.Endpoint endpoint = metrics.serve("127.0.0.1:0"); HttpClient client = HttpClient.newHttpClient()) {
            URI uri = URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics");
            return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
        }
    }

    private static Vertex vertex(Graph graph, String id) {
        assertThat(graph.ids()).contains(id);
        return graph.vertex(id);
    }

    @Test
    void independentPackagesAreInstalledInOneTransaction() throws Exception {
        Graph graph = manifests.compile("""
                resources:
                  - pkg:
                      - defaults: {db: ROOT/db}
                      - vim: {}
                      - git: {}
                      - jq: {}
                """);
        assertThat(graph.ids()).containsExactly("pkg#vim");
        assertThat(vertex(graph, "pkg#vim").groupedIds()).containsExactly("pkg#git", "pkg#jq");

        Report report = manifests.run(graph, false);
        assertThat(transactions(db)).containsExactly("git jq vim");
        assertThat(report.resources()).hasSize(1);
        ResourceReport group = Manifests.resource(report, "pkg#vim");
        assertThat(group.status()).isEqualTo(Status.CHANGED);
        assertThat(group.grouped()).containsExactly("pkg#git", "pkg#jq");
        assertThat(group.changedAttributes()).containsExactlyInAnyOrder("vim", "git", "jq");

        Map<String, Object> json = Manifests.json(JsonReport.render(report));
        @SuppressWarnings("unchecked")
        Map<String, Object> entry = ((List<Map<String, Object>>) json.get("resources")).get(0);
        assertThat(entry).containsEntry("id", "pkg#vim").containsEntry("grouped", List.of("pkg#git", "pkg#jq"));
        StringWriter text = new StringWriter();
        new TextReport(new PrintWriter(text), false).resource(group);
        assertThat(text.toString()).startsWith("pkg#vim (with pkg#git, pkg#jq) changed");

        assertThat(Manifests.resource(manifests.run(manifests.compile(Files.readString(dir.resolve("site.yaml"))), false),
                "pkg#vim").status()).isEqualTo(Status.STABLE);
        assertThat(transactions(db)).hasSize(1);
    }

    @Test
    void packagesWithAPathBetweenThemStayApartAndKeepTheirOrder() throws Exception {
        // vim -> marker file -> git: merging git into vim would be a cycle; jq is free to join vim
        Graph graph = manifests.compile("""
                resources:
                  - pkg:
                      - vim: {db: ROOT/db}
                  - file:
                      - ROOT/marker: {content: "vim is in\\n", require: [pkg#vim]}
                  - pkg:
                      - git: {db: ROOT/db, require: ["file#ROOT/marker"]}
                      - jq: {db: ROOT/db}
                """);
        assertThat(graph.ids()).containsExactly("pkg#vim", "file#" + dir.resolve("marker"), "pkg#git");
        assertThat(vertex(graph, "pkg#vim").groupedIds()).containsExactly("pkg#jq");
        assertThat(vertex(graph, "pkg#git").groupedIds()).isEmpty();

        manifests.run(graph, false);
        assertThat(transactions(db)).containsExactly("jq vim", "git");
    }

    @Test
    void onlyResourcesTheEngineCanRunAsOneAreGrouped() throws Exception {
        manifests.write("child.yaml", """
                resources:
                  - pkg: [{from-child: {db: ROOT/db}}]
                """);
        Graph graph = manifests.compile("""
                resources:
                  - pkg:
                      - leader: {db: ROOT/db}
                      - joins: {db: ROOT/db}
                      - opted-out: {db: ROOT/db, meta: {autogroup: false}}
                      - other-db: {db: ROOT/other}
                      - other-meta: {db: ROOT/db, meta: {retry: 2}}
                      - conditional: {db: ROOT/db, control: {if: "true"}}
                      - late: {db: ROOT/db, ensure: "{{ lookup('exec#choice.stdout') }}"}
                  - exec:
                      - choice: {command: [printf, installed]}
                  - apply: [{child.yaml: {}}]
                """);
        assertThat(vertex(graph, "pkg#leader").groupedIds()).containsExactly("pkg#joins");
        for (String apart : List.of("opted-out", "other-db", "other-meta", "conditional", "late", "from-child")) {
            assertThat(vertex(graph, "pkg#" + apart).groupedIds()).as(apart).isEmpty();
        }
    }

    @Test
    void edgesOfAGroupedResourceMoveToItsGroup() throws Exception {
        Graph graph = manifests.compile("""
                resources:
                  - pkg:
                      - vim: {db: ROOT/db}
                      - git: {db: ROOT/db}
                  - exec:
                      - after-git: {command: "sh -c 'ls ROOT/db > ROOT/seen'", require: [pkg#git]}
                      - on-git: {command: "touch ROOT/refreshed", refreshonly: true, subscribe: [pkg#git]}
                """);
        assertThat(graph.outgoing("pkg#vim")).extracting(e -> e.to()).contains("exec#after-git", "exec#on-git");

        Report report = manifests.run(graph, false);
        assertThat(dir.resolve("seen")).content().contains("git", "vim");
        assertThat(dir.resolve("refreshed")).exists();
        assertThat(Manifests.resource(report, "exec#on-git").refreshed()).isTrue();
        assertThat(GraphFormat.dot(graph)).contains("\"pkg#vim\" [label=\"pkg#vim\\npkg#git\"];");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> vertices = (List<Map<String, Object>>) Manifests.json(GraphFormat.json(graph)).get("vertices");
        assertThat(vertices.get(0)).containsEntry("grouped", List.of("pkg#git"));
    }

    @Test
    void aLiveGroupRepairsEachMemberAndReversesOnlyTheOneThatLeft() throws Exception {
        String withJq = """
                resources:
                  - pkg:
                      - defaults: {db: ROOT/db, meta: {reverse: true}}
                      - vim: {}
                      - git: {}
                      - jq: {}
                """;
        Files.writeString(db.resolve("git"), ""); // installed before muster: stays when git leaves the manifest
        RunOptions options = new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false);
        Metrics metrics = new Metrics();
        live = new LiveRun(options, 0.2, metrics, r -> {}, converged -> {});
        live.swap(manifests.compile(withJq));
        assertThat(live.awaitConverged(PATIENCE.toNanos())).isTrue();
        assertThat(transactions(db)).containsExactly("jq vim");
        assertThat(live.stats()).singleElement().satisfies(s -> assertThat(s.grouped()).containsExactly("pkg#git", "pkg#jq"));
        assertThat(scrape(metrics)).contains("muster_resources{kind=\"pkg\"} 3.0"); // declared resources, not groups

        Files.delete(db.resolve("git")); // drift in a member is seen by the group's watch
        await().atMost(PATIENCE).until(() -> transactions(db).equals(List.of("jq vim", "git")));

        live.swap(manifests.compile("""
                resources:
                  - pkg:
                      - defaults: {db: ROOT/db, meta: {reverse: true}}
                      - vim: {}
                """));
        assertThat(live.awaitConverged(PATIENCE.toNanos())).isTrue();
        assertThat(db.resolve("jq")).doesNotExist();
        assertThat(db.resolve("git")).exists();
        assertThat(db.resolve("vim")).exists();
        assertThat(live.stats()).singleElement().satisfies(s -> assertThat(s.grouped()).isEmpty());
    }
}
