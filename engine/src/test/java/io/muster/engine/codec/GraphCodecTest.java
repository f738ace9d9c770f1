package io.muster.engine.codec;

import io.muster.engine.graph.Graph;
import io.muster.engine.resource.Kinds;
import io.muster.engine.testing.Manifests;
import io.muster.engine.util.FileTrees;
import io.muster.proto.graph.Edge;
import io.muster.proto.graph.EdgeReason;
import io.muster.proto.value.Entry;
import io.muster.proto.value.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A message that is not a sound graph is refused with an error naming what is wrong, never run and never an NPE. */
class GraphCodecTest {
    @TempDir
    Path dir;

    private io.muster.proto.graph.Graph message;

    @BeforeEach
    void compile() throws Exception {
        Graph graph = new Manifests(dir).compile("""
                resources:
                  - exec:
                      - probe: {command: "echo 4", returns: [0]}
                  - msg:
                      - m: {message: "{{ lookup('exec#probe.stdout') }}", control: {if: "1 < 2"}}
                """);
        message = io.muster.proto.graph.Graph.parseFrom(GraphCodec.encode(graph).bytes());
    }

    private void assertRefused(UnaryOperator<io.muster.proto.graph.Graph.Builder> change, String expected) {
        byte[] bytes = change.apply(message.toBuilder()).build().toByteArray();
        assertThatThrownBy(() -> GraphCodec.decode(bytes, dir, Kinds.installed()))
                .isInstanceOf(InvalidGraphException.class).hasMessageStartingWith(expected);
    }

    @Test
    void theMessageAsWrittenDecodes() throws Exception {
        Graph graph = GraphCodec.decode(message.toByteArray(), dir, Kinds.installed());
        assertThat(graph.ids()).containsExactly("exec#probe", "msg#m");
        assertThat(graph.vertex("exec#probe").params().raw("returns")).as("still a whole number").isEqualTo(List.of(0L));
    }

    @Test
    void anUnknownKindIsNamed() {
        // every kind installed, in order (kinds come with new releases: the list is read, not written here)
        assertRefused(g -> g.setVertices(0, g.getVertices(0).toBuilder().setKind("nosuchkind")),
                "vertex 1 (nosuchkind#probe): unknown resource kind 'nosuchkind'; this host knows "
                        + String.join(", ", Kinds.installed().names().stream().sorted().toList()));
    }

    @Test
    void anEdgeToAnUnknownVertexIsNamed() {
        assertRefused(g -> g.addEdges(Edge.newBuilder().setFrom("exec#probe").setTo("exec#gone").setReason(EdgeReason.REQUIRE)),
                "edge exec#probe -> exec#gone (require): no vertex exec#gone");
        assertRefused(g -> g.addEdges(Edge.newBuilder().setFrom("msg#m").setTo("exec#probe").setReason(EdgeReason.REQUIRE)),
                "dependency cycle: exec#probe -> msg#m -> exec#probe");
    }

    @Test
    void gossRulesGossWouldNotReadAreNamed() {
        io.muster.proto.graph.HealthCheck check = io.muster.proto.graph.HealthCheck.newBuilder().setName("up").setTries(1)
                .setGoss("{\"file\": {\"/x\": {\"exist\": true}}}").build();
        assertRefused(g -> g.setVertices(0, g.getVertices(0).toBuilder().addHealthChecks(check)),
                "exec#probe: health check 'up': goss: file /x: unknown attribute 'exist'");
        assertRefused(g -> g.setVertices(0, g.getVertices(0).toBuilder().addHealthChecks(check.toBuilder().setCommand("true"))),
                "exec#probe: health check 'up' out of range");
    }

    @Test
    void aValueItsKindRefusesIsNamed() {
        Entry returns = Entry.newBuilder().setKey("returns").setValue(Value.newBuilder().setText("zero")).build();
        assertRefused(g -> g.setVertices(0, g.getVertices(0).toBuilder().setParams(
                        g.getVertices(0).getParams().toBuilder().setEntries(1, returns))),
                "exec#probe: returns: expected a whole number or a list of them, got the string 'zero'");
        assertRefused(g -> g.setVertices(0, g.getVertices(0).toBuilder().setParams(
                        g.getVertices(0).getParams().toBuilder().addEntries(Entry.newBuilder().setKey("colour").setValue(returns.getValue())))),
                "exec#probe: exec has no property 'colour'");
        assertRefused(g -> g.setVertices(1, g.getVertices(1).toBuilder().setScope(7)), "msg#m: scope table: index 7 of 1");
        assertRefused(g -> g.setVertices(1, g.getVertices(1).toBuilder().setOnlyIf(
                        g.getVertices(1).getOnlyIf().toBuilder().setSource("1 <"))),
                "msg#m: control.if: syntax error in expression '1 <'");
    }

    /** A graph big enough to be decoded on several cores comes back whole, in order, and refused at its first bad vertex. */
    @Test
    void aLargeGraphDecodesInOrderAndItsFirstBadVertexIsNamed() throws Exception {
        StringBuilder manifest = new StringBuilder("resources:\n  - file:\n");
        for (int i = 0; i < 3000; i++) manifest.append("      - ").append(dir).append("/f").append(i).append(": {content: \"").append(i).append("\\n\"}\n");
        Graph graph = new Manifests(dir).compile(manifest.toString());
        byte[] bytes = GraphCodec.encode(graph).bytes();
        Graph decoded = GraphCodec.decode(bytes, dir, Kinds.installed());
        assertThat(decoded.ids()).containsExactlyElementsOf(graph.ids());
        assertThat(decoded.vertex("file#" + dir + "/f2999").params().raw("content")).isEqualTo("2999\n");
        assertThat(GraphCodec.encode(decoded).bytes()).as("the same bytes again").isEqualTo(bytes);

        io.muster.proto.graph.Graph.Builder broken = io.muster.proto.graph.Graph.parseFrom(bytes).toBuilder();
        for (int bad : new int[] {2900, 1700}) broken.setVertices(bad, broken.getVertices(bad).toBuilder().setKind("nosuchkind"));
        assertThatThrownBy(() -> GraphCodec.decode(broken.build().toByteArray(), dir, Kinds.installed()))
                .isInstanceOf(InvalidGraphException.class).hasMessageStartingWith("vertex 1701 (nosuchkind#" + dir + "/f1700): unknown resource kind");
    }

    /** Whatever bytes a broken store or a bad actor hands over, decoding gives a graph or a clear refusal. */
    @Property(tries = 300)
    void changedBytesDecodeOrAreRefused(@ForAll @IntRange(min = 0, max = 10_000) int at, @ForAll byte value,
                                        @ForAll @IntRange(min = 0, max = 2) int how) {
        byte[] bytes = Sample.BYTES;
        int i = at % bytes.length;
        byte[] changed = switch (how) {
            case 0 -> replaced(bytes, i, value);
            case 1 -> Arrays.copyOf(bytes, i);
            default -> inserted(bytes, i, value);
        };
        try {
            GraphCodec.decode(changed, Path.of("/nonexistent/bundle"), Kinds.installed());
        } catch (InvalidGraphException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("Exception");
        }
    }

    /** A graph with a little of everything, compiled once for all the tries. */
    private static final class Sample {
        static final byte[] BYTES = compile();

        private static byte[] compile() {
            Path root = null;
            try {
                root = Files.createTempDirectory("codec");
                return GraphCodec.encode(new Manifests(root).compile("""
                        resources:
                          - exec:
                              - probe: {command: "echo 4", returns: [0], health_checks: [{command: "true"}], meta: {limit: 2, burst: 1}}
                          - file:
                              - ROOT/f: {content: "{{ lookup('exec#probe.stdout') }}", control: {unless: "${ env.HOME == '/' }"}, tags: [a]}
                        """)).bytes();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                deleteTree(root);
            }
        }
    }

    private static void deleteTree(Path root) {
        if (root == null) return;
        try {
            FileTrees.delete(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] replaced(byte[] bytes, int at, byte value) {
        byte[] out = bytes.clone();
        out[at] = value;
        return out;
    }

    private static byte[] inserted(byte[] bytes, int at, byte value) {
        byte[] out = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, out, 0, at);
        out[at] = value;
        System.arraycopy(bytes, at, out, at + 1, bytes.length - at);
        return out;
    }

    @Test
    void bytesCutShortAreNotAGraph() {
        byte[] whole = message.toByteArray();
        byte[] cut = Arrays.copyOf(whole, whole.length - 3);
        assertThatThrownBy(() -> GraphCodec.decode(cut, dir, Kinds.installed()))
                .isInstanceOf(InvalidGraphException.class).hasMessageStartingWith("not a graph message (" + cut.length + " bytes): ");
    }
}
