package io.muster.engine.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.muster.proto.graph.Graph;
import io.muster.proto.graph.Vertex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * A graph message read in two parts: everything but its vertices, parsed at once, and its vertices, parsed one at a
 * time as the decoder asks. A graph of 10,000 files then never has the whole message and the graph it becomes in
 * memory together (tens of megabytes, copied by every young collection while both are alive).
 */
final class GraphMessage {
    private final byte[] bytes;
    private final Graph rest;
    private CodedInputStream vertices;

    private GraphMessage(byte[] bytes, Graph rest) {
        this.bytes = bytes;
        this.rest = rest;
    }

    /** Reads everything but the vertices; the bytes must stay as they are while the vertices are read. */
    static GraphMessage of(byte[] bytes) throws InvalidProtocolBufferException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        ByteArrayOutputStream copied = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(copied);
        try {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (isVertex(tag)) in.skipField(tag);
                else in.skipField(tag, out);
            }
            out.flush();
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("writing into memory failed", e);
        }
        return new GraphMessage(bytes, Graph.parseFrom(copied.toByteArray()));
    }

    /** The graph's other fields; its vertex list is empty. */
    Graph rest() {
        return rest;
    }

    /** The next vertex in order, or null after the last. */
    Vertex nextVertex() throws InvalidProtocolBufferException {
        try {
            if (vertices == null) vertices = CodedInputStream.newInstance(bytes);
            for (int tag = vertices.readTag(); tag != 0; tag = vertices.readTag()) {
                if (isVertex(tag)) return Vertex.parseFrom(vertices.readBytes());
                vertices.skipField(tag);
            }
            return null;
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("reading from memory failed", e);
        }
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
