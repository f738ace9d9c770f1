package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.YamlReader;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One path, one id, one resource; and what a manifest may hold at its limits compiles without a stack overflow. */
class PathsAndLimitsTest {
    @TempDir
    Path dir;

    private Manifests manifests() {
        return new Manifests(dir);
    }

    @Test
    void pathsAreCanonicalInIdsAndParams() throws Exception {
        Graph g = manifests().compile("""
                resources:
                  - file:
                      - //tmp/x/../a: {content: x}
                      - /tmp/./b/: {content: x}
                  - document:
                      - /tmp//c.json: {content: {a: 1}}
                """);
        assertThat(g.ids()).containsExactly("file#/tmp/a", "file#/tmp/b", "document#/tmp/c.json");
        assertThat(g.vertex("file#/tmp/a").params().raw("path")).isEqualTo("/tmp/a");
    }

    @Test
    void relationsMayNameAPathInAnySpelling() throws Exception {
        Graph g = manifests().compile("""
                resources:
                  - file:
                      - /tmp/a: {content: x}
                      - /tmp/b: {content: x, require: "file#/tmp//x/../a/"}
                """);
        assertThat(g.incoming("file#/tmp/b")).extracting(e -> e.from()).containsExactly("file#/tmp/a");
    }

    @Test
    void twoResourcesManagingOnePathAreACompileErrorNamingBoth() {
        Path site = manifests().write("site.yaml", """
                resources:
                  - file:
                      - /tmp/a: {content: one}
                      - motd: {path: /tmp/x/../a/, content: two}
                  - document:
                      - /tmp//a: {format: json, content: {a: 1}}
                """);
        assertThatThrownBy(() -> manifests().compile(site, java.util.Map.of()))
                .isInstanceOf(ManifestException.class)
                .hasMessage(site + ":4:9: file#motd: file#/tmp/a (" + site + ":3:9) already manages /tmp/a; a path may be managed"
                        + " by one resource only\n"
                        + site + ":6:9: document#/tmp/a: file#/tmp/a (" + site + ":3:9) already manages /tmp/a; a path may be managed"
                        + " by one resource only");
    }

    @Test
    void aManifestOfOneHundredThousandFilesCompiles() throws Exception {
        StringBuilder yaml = new StringBuilder("resources:\n  - file:\n      - ROOT/out: {ensure: directory}\n");
        for (int i = 1; i <= 100_000; i++) yaml.append("      - ROOT/out/f%06d: {content: \"muster bench payload: 0123456789\\n\"}\n".formatted(i));
        assertThat(yaml.length()).as("over snakeyaml-engine's default limit of 3 MiB").isGreaterThan(3 << 20);

        Graph graph = manifests().compile(yaml.toString());

        assertThat(graph.ids()).hasSize(100_001);
        assertThat(graph.edges()).hasSize(100_000).allSatisfy(e -> assertThat(e.from()).isEqualTo("file#" + dir.resolve("out")));
    }

    @Test
    void valuesNestedAsDeepAsAllowedCompileAndRender() throws Exception {
        int lists = YamlReader.MAX_DEPTH - 7; // the manifest, resources:, the block, its list, the entry, its properties, content
        String nested = "[".repeat(lists) + "'${ data.x }'" + "]".repeat(lists);
        String atLimit = """
                data: {x: 1}
                resources:
                  - document:
                      - /tmp/deep.json: {content: {v: %s}}
                """.formatted(nested);
        // on a virtual thread, as muster run's reloads compile
        AtomicReference<Object> compiled = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            try {
                compiled.set(manifests().compile(atLimit));
            } catch (Throwable e) {
                compiled.set(e);
            }
        }).join();
        assertThat(compiled.get()).isInstanceOfSatisfying(Graph.class, g -> assertThat(g.ids()).containsExactly("document#/tmp/deep.json"));
        assertThatThrownBy(() -> manifests().compile("resources:\n  - document:\n      - /tmp/deep.json: {content: {v: [" + nested + "]}}\n"))
                .hasMessageContaining("nested deeper than 200 levels (the limit)");
    }

    @Test
    void malformedAssignmentsNameTheExpectedForm() {
        for (String bad : List.of("x", "=1", "..=1", "a..b=1", ".a=1", "a.=1", "a.".repeat(200) + "a=1")) {
            assertThatThrownBy(() -> Assignments.parse(List.of(bad), "--data")).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("expected KEY=VALUE, where KEY is a name or names joined by dots");
        }
        assertThat(Assignments.parse(List.of("a.b=1", "c= x=y"), "--data")).isEqualTo(java.util.Map.of("a", java.util.Map.of("b", 1), "c", "x=y"));
    }
}
