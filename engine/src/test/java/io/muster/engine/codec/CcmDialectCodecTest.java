package io.muster.engine.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.compile.Rendering;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.Kinds;
import io.muster.engine.template.Lookup;
import io.muster.engine.template.TemplateDialect;
import io.muster.engine.testing.Manifests;
import io.muster.proto.value.Entry;
import io.muster.proto.value.Value;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A graph whose scope table is in CCM's template dialect carries it, and its templates as written, through the codec. */
class CcmDialectCodecTest {
    @TempDir
    Path dir;

    private io.muster.proto.graph.Graph nativeMessage;

    @BeforeEach
    void compile() throws Exception {
        Graph graph = new Manifests(dir).compile("""
                data: {greeting: hello}
                resources:
                  - file:
                      - /tmp/motd: {content: "x"}
                """);
        nativeMessage = io.muster.proto.graph.Graph.parseFrom(GraphCodec.encode(graph).bytes());
    }

    /** The native graph with its table in CCM's dialect and the file's content a CCM template left for run time. */
    private io.muster.proto.graph.Graph ccmMessage() {
        io.muster.proto.graph.Graph.Builder g = nativeMessage.toBuilder();
        g.setScopes(0, g.getScopes(0).toBuilder().setDialect("ccm"));
        Entry content = Entry.newBuilder().setKey("content")
                .setValue(Value.newBuilder().setText("${ Data.greeting | upper() } from {{ Facts.hostname ?? 'nowhere' }}")).build();
        g.setVertices(0, g.getVertices(0).toBuilder().setLate(g.getVertices(0).getLate().toBuilder().addEntries(content)));
        return g.build();
    }

    @Test
    void aNativeGraphWritesNoDialect() {
        assertThat(nativeMessage.getScopes(0).getDialect()).isEmpty();
        assertThat(nativeMessage.getScopes(0).toString()).doesNotContain("dialect");
    }

    @Test
    void aCcmTemplateRoundTripsByteIdenticallyAndRendersInItsDialect() throws Exception {
        byte[] written = ccmMessage().toByteArray();
        Graph decoded = GraphCodec.decode(written, dir, Kinds.installed());
        Vertex file = decoded.vertex("file#/tmp/motd");
        assertThat(file.scope().dialect()).isEqualTo(TemplateDialect.CCM);
        assertThat(file.late()).containsKey("content");
        assertThat(GraphCodec.encode(decoded).bytes()).isEqualTo(written);
        Object rendered = Rendering.render(file.late().get("content"), file.scope(Lookup.NONE));
        assertThat(rendered).isEqualTo("HELLO from nowhere");
    }

    @Test
    void anUnknownDialectIsRefused() {
        io.muster.proto.graph.Graph.Builder g = nativeMessage.toBuilder();
        g.setScopes(0, g.getScopes(0).toBuilder().setDialect("jinja"));
        assertThatThrownBy(() -> GraphCodec.decode(g.build().toByteArray(), dir, Kinds.installed()))
                .isInstanceOf(InvalidGraphException.class)
                .hasMessage("scope table of the bundle's directory: unknown template dialect 'jinja'");
    }
}
