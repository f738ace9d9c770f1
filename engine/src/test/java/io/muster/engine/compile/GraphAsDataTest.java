package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.resource.Kinds;
import io.muster.engine.template.ScopeTable;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compiled graph is plain data: what it holds of the compiling host is only what its run-time templates read. */
class GraphAsDataTest {
    private static final Map<String, String> ENV = Map.of("HOME", "/home/test", "SECRET_TOKEN", "s3cr3t", "LANG", "C");

    @TempDir
    Path dir;

    private Graph compile(String yaml) throws ManifestException {
        Manifests manifests = new Manifests(dir);
        Path file = manifests.write("site.yaml", yaml);
        return new ManifestCompiler(new CompileOptions(Manifests.FACTS, ENV, Map.of())).compile(file);
    }

    @Test
    void aScopeTableHoldsOnlyTheFactsAndEnvironmentRunTimeTemplatesRead() throws Exception {
        Graph g = compile("""
                data: {greeting: hi}
                resources:
                  - exec:
                      - probe: {command: "echo x"}
                  - msg:
                      - late: {message: "${ lookup('exec#probe.stdout') } ${ env.HOME } ${ facts.os.family }"}
                      - early: {message: "${ env.LANG } ${ facts.hostname }", control: {if: "lookup('env.LANG') == 'C'"}}
                """);
        ScopeTable table = g.vertex("msg#late").scope();
        assertThat(table.env()).as("read at run time: HOME by the late message, LANG by the condition")
                .isEqualTo(Map.of("HOME", "/home/test", "LANG", "C"));
        assertThat(table.facts()).containsOnlyKeys("os");
        assertThat(table.data()).isEqualTo(Map.of("greeting", "hi"));
        assertThat(table.directory()).isEmpty();
        assertThat(g.vertex("exec#probe").scope()).as("one table per manifest").isSameAs(table);
        assertThat(g.vertex("msg#early").params().raw("message")).as("rendered at compile time").isEqualTo("C testhost");
    }

    @Test
    void aRunTimeTemplateReadingTheEnvironmentByAComputedNameIsAProblem() {
        assertThatThrownBy(() -> compile("""
                data: {name: HOME}
                resources:
                  - exec:
                      - probe: {command: "echo x"}
                  - msg:
                      - m: {message: "${ lookup('exec#probe.stdout') } ${ env[data.name] }"}
                """)).isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.getMessage())
                .contains("site.yaml:6:", "msg#m: a template evaluated at run time reads the environment by a computed name"));
    }

    @Test
    void paramsKeepTheirOrderAndWholeNumbers() throws Exception {
        Graph g = compile("""
                resources:
                  - exec:
                      - e: {command: "true", returns: [0], timeout: 5, environment: {B: "1", A: "2"}}
                """);
        Vertex v = g.vertex("exec#e");
        assertThat(v.params().raw("returns")).isEqualTo(List.of(0L));
        assertThat(v.params().values().keySet()).containsExactly("command", "returns", "timeout", "environment");
    }

    @Test
    void theBundleListsTheFilesReadAtRunTimeWithTheirSha256() throws Exception {
        Files.createDirectories(dir.resolve("files"));
        Files.writeString(dir.resolve("files/banner.txt"), "hello\n");
        Graph g = compile("""
                resources:
                  - file:
                      - ROOT/out/banner: {source: files/banner.txt}
                      - ROOT/out/absent: {source: files/none.txt}
                """);
        assertThat(g.bundle().root()).isEqualTo(dir.toAbsolutePath());
        assertThat(g.bundle().files()).isEqualTo(Map.of("files/banner.txt",
                "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"));
    }

    @Test
    void aGraphRefusesAnEdgeToAnUnknownVertex() throws Exception {
        Graph g = compile("""
                resources:
                  - msg:
                      - a: {message: x}
                """);
        List<Vertex> vertices = List.copyOf(g.vertices());
        assertThatThrownBy(() -> new Graph(vertices, List.of(new Edge("msg#a", "msg#b", EdgeReason.REQUIRE))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("edge msg#a -> msg#b (require): no vertex msg#b");
        assertThat(Kinds.installed().get("msg")).isSameAs(vertices.get(0).kind());
    }
}
