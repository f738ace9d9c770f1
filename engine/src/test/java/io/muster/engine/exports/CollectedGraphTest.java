package io.muster.engine.exports;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.resource.Kinds;
import io.muster.engine.testing.Manifests;
import io.muster.engine.world.World.Exported;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollectedGraphTest {
    private static final String LB = """
            resources:
              - file: [{ROOT/pool: {ensure: directory}}]
            collect:
              - kind: file
                tags: [pool]
                from: ["web*"]
                allow: {paths: [ROOT/pool]}
                meta: {reverse: true}
            """;

    @TempDir
    Path dir;

    private final List<Exported> files = new ArrayList<>();

    private Graph compile(String yaml) throws ManifestException {
        return new Manifests(dir).compile(yaml);
    }

    private void export(String host, String kind, String name, Map<String, Object> params, List<String> tags, List<String> to) {
        files.add(new Exported(host, kind, name, new ExportedResource(kind, name, params, tags, to).encode()));
    }

    private void exportFile(String host, String path, String content) {
        export(host, "file", path, Map.of("path", path, "content", content), List.of("pool"), List.of());
    }

    private CollectedGraph.Result collect(Graph base, String kind) {
        return CollectedGraph.of(base, "lb1", Map.of(kind, files), Kinds.installed());
    }

    private static List<String> rejections(CollectedGraph.Result result) {
        return result.collected().stream().filter(c -> !c.applied()).map(c -> c.id() + ": " + c.rejected().replaceAll(" \\(collect at .*\\)$", ""))
                .toList();
    }

    @Test
    void theExportsOfOtherHostsJoinTheGraphUnderIdsNamingTheirExporter() throws Exception {
        Graph base = compile(LB);
        exportFile("web1", dir + "/pool/web1", "10.0.0.1");
        exportFile("web2", dir + "/pool/web2", "10.0.0.2");
        exportFile("lb1", dir + "/pool/lb1", "its own"); // a host never collects its own
        exportFile("db1", dir + "/pool/db1", "not from web*");
        export("web3", "file", dir + "/pool/web3", Map.of("path", dir + "/pool/web3"), List.of("other"), List.of()); // not tagged pool
        export("web4", "file", dir + "/pool/web4", Map.of("path", dir + "/pool/web4"), List.of("pool"), List.of("db*")); // not meant for lb1

        CollectedGraph.Result result = collect(base, "file");

        String web1 = "file#" + dir + "/pool/web1@web1";
        assertThat(result.graph().ids()).containsExactly("file#" + dir + "/pool", web1, "file#" + dir + "/pool/web2@web2");
        assertThat(result.graph().vertex(web1).params().raw("content")).isEqualTo("10.0.0.1");
        assertThat(result.graph().vertex(web1).meta().reverse()).isTrue();
        assertThat(result.graph().incoming(web1)).singleElement().satisfies(e -> assertThat(e.from()).isEqualTo("file#" + dir + "/pool"));
        assertThat(result.collected()).extracting(Collected::exporter).containsExactly("web1", "web2");
        assertThat(rejections(result)).isEmpty();
    }

    @Test
    void twoExportersOfOneNameDoNotCollideButTwoOfOnePathConflictAndNeitherRuns() throws Exception {
        Graph base = compile(LB + """
                  - kind: file
                    tags: [shared]
                    allow: {paths: [ROOT]}
                """);
        exportFile("web1", dir + "/pool/a", "1");
        exportFile("web2", dir + "/pool/a", "2"); // same name and path: a real conflict
        export("web1", "file", "backend", Map.of("path", dir + "/pool/b1"), List.of("pool"), List.of()); // same name,
        export("web2", "file", "backend", Map.of("path", dir + "/pool/b2"), List.of("pool"), List.of()); // other paths
        export("web3", "file", "mine", Map.of("path", dir + "/pool"), List.of("shared"), List.of()); // this host's own directory

        CollectedGraph.Result result = collect(base, "file");

        assertThat(result.graph().ids()).containsExactly("file#backend@web1", "file#backend@web2");
        assertThat(rejections(result)).containsExactlyInAnyOrder(
                "file#" + dir + "/pool/a@web1: conflict: path:" + dir + "/pool/a is also managed by file#" + dir + "/pool/a@web2; neither is applied",
                "file#" + dir + "/pool/a@web2: conflict: path:" + dir + "/pool/a is also managed by file#" + dir + "/pool/a@web1; neither is applied",
                "file#mine@web3: conflict: path:" + dir + "/pool is also managed by file#" + dir + "/pool; neither is applied");
    }

    @Test
    void exportsThatBreakTheTrustRulesAreRejectedNamingTheRule() throws Exception {
        Graph base = compile(LB);
        exportFile("web1", "/etc/cron.d/evil", "* * * * * root sh -c evil");
        export("web2", "file", dir + "/pool/leak", Map.of("path", dir + "/pool/leak", "source", "/etc/shadow"), List.of("pool"), List.of());
        files.add(new Exported("web3", "file", "garbage", "not base64!"));

        assertThat(rejections(collect(base, "file"))).containsExactly(
                "file#/etc/cron.d/evil@web1: /etc/cron.d/evil is outside allow.paths [" + dir + "/pool]",
                "file#" + dir + "/pool/leak@web2: source reads a file of the host it runs on: never collected",
                "file#garbage@web3: unreadable export: Illegal base64 character 20");

        Graph execs = compile("""
                collect:
                  - kind: exec
                    tags: [pool]
                """);
        files.clear();
        export("web1", "exec", "evil", Map.of("command", "rm -rf /"), List.of("pool"), List.of());
        CollectedGraph.Result result = collect(execs, "exec");
        assertThat(result.graph().ids()).isEmpty();
        assertThat(rejections(result)).containsExactly("exec#evil@web1: exec runs commands: collected only when allow.kinds names it");
        assertThat(result.collected().getFirst().rejected()).contains("(collect at " + dir.resolve("site.yaml") + ":2:5)");

        Graph allowed = compile("""
                collect:
                  - kind: exec
                    tags: [pool]
                    allow: {kinds: [exec]}
                """);
        assertThat(collect(allowed, "exec").graph().ids()).containsExactly("exec#evil@web1");
    }

    @Test
    void whereSelectsByAPropertyValue() throws Exception {
        Graph base = compile("""
                collect:
                  - kind: file
                    where: {mode: "0644"}
                    allow: {paths: [ROOT]}
                """);
        export("web1", "file", dir + "/a", Map.of("path", dir + "/a", "mode", "0644"), List.of(), List.of());
        export("web2", "file", dir + "/b", Map.of("path", dir + "/b", "mode", "0600"), List.of(), List.of());
        assertThat(collect(base, "file").graph().ids()).containsExactly("file#" + dir + "/a@web1");
    }
}
