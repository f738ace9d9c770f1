package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Child manifests compiled into the parent's graph. */
class CompositionTest {
    @TempDir
    Path dir;

    @Test
    void childResourcesCarryTheirManifestAndTheStrengthenedModes() throws Exception {
        Manifests m = new Manifests(dir);
        m.write("lib/web.yaml", "resources: [{noop: [{inner: {meta: {noop: false}}}]}]\n");
        Graph graph = m.compile("""
                resources:
                  - noop: [first]
                  - apply: [{lib/web.yaml: {noop: true, health_check_only: true, require: noop#first}}]
                  - noop: [{last: {subscribe: apply#lib/web.yaml}}]
                """);
        assertThat(graph.vertices()).extracting(v -> v.id()).containsExactly("noop#first", "apply#lib/web.yaml", "noop#inner", "noop#last");
        var inner = graph.vertex("noop#inner");
        assertThat(inner.origin().chain()).containsExactly("site.yaml", "lib/web.yaml");
        assertThat(inner.meta().noop()).as("noop: false cannot weaken the apply's noop").isTrue();
        assertThat(inner.origin().healthCheckOnly()).isTrue();
        assertThat(inner.params().directory()).isEqualTo(dir.resolve("lib"));
        assertThat(graph.vertex("noop#last").meta().noop()).isFalse();
        assertThat(graph.vertex("noop#last").origin().childManifest()).isNull();
        assertThat(graph.edges()).contains(
                new Edge("noop#first", "noop#inner", EdgeReason.REQUIRE),
                new Edge("noop#inner", "apply#lib/web.yaml", EdgeReason.CHILD),
                new Edge("apply#lib/web.yaml", "noop#last", EdgeReason.SUBSCRIBE));
    }

    @Test
    void eachManifestResolvesItsOwnData() throws Exception {
        Manifests m = new Manifests(dir);
        m.write("lib/a.yaml", "data: {x: a, y: a}\nresources: [{noop: [\"a-${ data.x }-${ data.y }\"]}]\n");
        Graph graph = m.compile(m.write("site.yaml", """
                data: {x: site}
                resources:
                  - apply: [{lib/a.yaml: {data: {y: apply}}}]
                  - noop: ["site-${ data.x }"]
                """), Map.of("x", "cli"));
        assertThat(graph.ids()).contains("noop#a-cli-apply", "noop#site-cli");
    }

    @Test
    void theDepthLimitCountsManifestsInAChain() throws Exception {
        Manifests m = new Manifests(dir);
        m.write("b.yaml", "resources: [{apply: [c.yaml]}]\n");
        m.write("c.yaml", "resources: []\n");
        Path site = m.write("site.yaml", "resources: [{apply: [b.yaml]}]\n");
        CompileOptions three = new CompileOptions(Manifests.FACTS, Map.of(), Map.of(), 3);
        assertThat(new ManifestCompiler(three).compile(site).size()).isEqualTo(2);
        CompileOptions two = new CompileOptions(Manifests.FACTS, Map.of(), Map.of(), 2);
        assertThatThrownBy(() -> new ManifestCompiler(two).compile(site)).isInstanceOf(ManifestException.class)
                .hasMessageEndingWith("apply#c.yaml: manifests nested 3 deep, more than the 2 allowed (--max-apply-depth): "
                        + "site.yaml -> b.yaml -> c.yaml");
        assertThatThrownBy(() -> new CompileOptions(Manifests.FACTS, Map.of(), Map.of(), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCycleThroughAnApplyAndItsChildIsADependencyCycle() {
        Manifests m = new Manifests(dir);
        m.write("lib/c.yaml", "resources: [{noop: [{inner: {require: noop#outer}}]}]\n");
        assertThatThrownBy(() -> m.compile("resources: [{apply: [lib/c.yaml]}, {noop: [{outer: {require: apply#lib/c.yaml}}]}]\n"))
                .hasMessageContaining("dependency cycle: ");
    }
}
