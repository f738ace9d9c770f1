package io.muster.engine.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.muster.proto.graph.Graph;
import io.muster.proto.graph.Vertex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A graph message read in two parts: everything but its vertices, parsed at once, and where each vertex lies, to be
 * parsed one at a time by whoever decodes it. A graph of 10,000 files then never has the whole message and the
 * graph it becomes in memory together (tens of megabytes, copied by every young collection while both are alive),
 * and its vertices can be decoded on several cores.
 */
final class GraphMessage {
    private final Graph rest;
    private final List<VertexBytes> vertices;

    private GraphMessage(Graph rest, List<VertexBytes> vertices) {
        this.rest = rest;
        this.vertices = vertices;
    }

    /** One vertex's bytes in the message, which must stay as they are until it is parsed. */
    record VertexBytes(byte[] message, int offset, int length) {
        Vertex parse() throws InvalidProtocolBufferException {
            return Vertex.parser().parseFrom(message, offset, length);
        }
    }

    /** Reads everything but the vertices, and where each vertex is. */
    static GraphMessage of(byte[] bytes) throws InvalidProtocolBufferException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        ByteArrayOutputStream copied = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(copied);
        List<VertexBytes> vertices = new ArrayList<>();
        try {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (isVertex(tag)) {
                    int length = in.readRawVarint32();
                    if (length < 0) throw new InvalidProtocolBufferException("a vertex of negative length");
                    vertices.add(new VertexBytes(bytes, in.getTotalBytesRead(), length));
                    in.skipRawBytes(length);
                } else {
                    in.skipField(tag, out);
                }
            }
            out.flush();
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("writing into memory failed", e);
        }
        return new GraphMessage(Graph.parseFrom(copied.toByteArray()), List.copyOf(vertices));
    }

    /** The graph's other fields; its vertex list is empty. */
    Graph rest() {
        return rest;
    }

    /** The vertices, in order, not parsed yet. */
    List<VertexBytes> vertices() {
        return vertices;
    }

    /** A vertex field, as its tag says; the wrong wire type for one is a malformed message, which parsing it says. */
    private static boolean isVertex(int tag) throws InvalidProtocolBufferException {
        if (WireFormat.getTagFieldNumber(tag) != Graph.VERTICES_FIELD_NUMBER) return false;
        if (WireFormat.getTagWireType(tag) != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            throw new InvalidProtocolBufferException("field " + Graph.VERTICES_FIELD_NUMBER + " (vertices) has wire type "
                    + WireFormat.getTagWireType(tag) + ", not a message");
        }
        return true;
    }
}
