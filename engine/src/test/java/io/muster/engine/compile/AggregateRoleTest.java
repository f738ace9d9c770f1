package io.muster.engine.compile;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Kinds;
import io.muster.engine.testing.BundleKind;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Composition follows the role a kind declares ({@code AggregateKind}), not the name {@code apply}: a test kind
 * named {@code bundle} gets members, scoping, checks and an outcome exactly like {@code apply}.
 */
class AggregateRoleTest {
    @TempDir
    Path dir;

    private Manifests manifests() {
        return new Manifests(dir, Kinds.installed().with(new BundleKind()));
    }

    @Test
    void anAggregateOfAnotherNameCompilesItsMembersBeforeIt() throws Exception {
        Manifests m = manifests();
        m.write("bundles/web.yaml", "resources: [{noop: [inner]}, {apply: [../empty.yaml]}]\n");
        m.write("empty.yaml", "resources: []\n");
        Graph graph = m.compile("""
                resources:
                  - noop: [first]
                  - bundle: [{web: {noop: true, require: noop#first}}]
                  - noop: [{last: {subscribe: bundle#web}}]
                """);
        assertThat(graph.vertex("bundle#web").role()).isEqualTo(Vertex.Role.AGGREGATE);
        assertThat(graph.vertex("apply#../empty.yaml").role()).isEqualTo(Vertex.Role.AGGREGATE);
        assertThat(graph.vertex("noop#inner").role()).isEqualTo(Vertex.Role.RESOURCE);
        assertThat(graph.vertex("noop#inner").meta().noop()).as("the bundle's noop reaches its members").isTrue();
        assertThat(graph.vertex("noop#inner").origin().chain()).containsExactly("site.yaml", "bundles/web.yaml");
        assertThat(graph.edges()).contains(
                new Edge("noop#first", "noop#inner", EdgeReason.REQUIRE),
                new Edge("noop#inner", "bundle#web", EdgeReason.CHILD),
                new Edge("bundle#web", "noop#last", EdgeReason.SUBSCRIBE));
        assertThat(graph.manifests()).as("every manifest read, an empty one too").containsExactlyInAnyOrder(
                dir.resolve("site.yaml"), dir.resolve("bundles/web.yaml"), dir.resolve("empty.yaml"));
    }

    @Test
    void theKindSaysWhichNamesItTakesAndTheCompilerChecksTheRest() {
        Manifests m = manifests();
        assertThatThrownBy(() -> m.compile("resources: [{bundle: [lib/web]}]\n"))
                .hasMessageEndingWith("bundle#lib/web: expected a bundle name, not a path");
        assertThatThrownBy(() -> m.compile("resources: [{bundle: [missing]}]\n"))
                .hasMessageEndingWith("bundle#missing: no manifest at " + dir.resolve("bundles/missing.yaml"));
        assertThatThrownBy(() -> m.compile("resources: [{bundle: [{web: {control: {if: true}}}]}]\n"))
                .hasMessageContaining("bundle#web: control is not supported on bundle resources");
        m.write("bundles/web.yaml", "resources: []\n");
        assertThatThrownBy(() -> m.compile("resources: [{noop: [{x: {comment: hi}}]}, {bundle: [{web: {data: {v: \"${ lookup('noop#x.comment') }\"}}}]}]\n"))
                .hasMessageContaining("bundle#web: lookup('noop#x.comment'): a bundle resource's settings cannot read other resources");
    }

    @Test
    void anAggregatesOutcomeIsItsMembers() throws Exception {
        Manifests m = manifests();
        m.write("bundles/web.yaml", "resources: [{file: [{ROOT/a: {content: \"a\\n\"}}]}]\n");
        Report changed = m.apply("resources: [{bundle: [web]}]\n");
        assertThat(resource(changed, "bundle#web").status()).isEqualTo(Status.CHANGED);
        assertThat(resource(changed, "bundle#web").message()).isEqualTo("1 of 1 child resources changed");
        assertThat(Files.readString(dir.resolve("a"))).isEqualTo("a\n");

        m.write("bundles/web.yaml", "resources: [{exec: [{a: {command: \"false\"}}, {b: {command: \"false\"}}, {c: {command: \"true\"}}]}]\n");
        ResourceReport failed = resource(m.apply("resources: [{bundle: [web]}]\n"), "bundle#web");
        assertThat(failed.status()).isEqualTo(Status.FAILED);
        assertThat(failed.error()).isEqualTo("child manifest had 2 failed resources");
    }
}
