package io.muster.engine.codec;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.engine.graph.Graph;
import io.muster.engine.resource.Kinds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A compiled graph to bytes and back, as the fleet stores it ({@code muster.graph.Graph}). The encoding is
 * canonical: the same graph gives the same bytes, and so the same sha256, in any JVM, so hosts whose graphs are
 * equal share one stored graph and a recompile that changes nothing publishes nothing. Decoding rebuilds a graph
 * that runs with no manifest file: kinds are looked up by name, and the bundle's directory is bound to a local one.
 */
public final class GraphCodec {
    private GraphCodec() {}

    /** A graph's bytes and their hex sha256. */
    public record Encoded(byte[] bytes, String sha256) {}

    public static Encoded encode(Graph graph) {
        io.muster.proto.graph.Graph message = GraphEncoder.encode(graph);
        byte[] bytes = new byte[message.getSerializedSize()];
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.useDeterministicSerialization();
        try {
            message.writeTo(out);
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException("writing a graph into memory failed", e);
        }
        return new Encoded(bytes, sha256(bytes));
    }

    /**
     * The graph {@code bytes} hold, its bundle's directory bound to {@code bundleRoot} (where the bundle's files
     * are), its kinds those of {@code kinds}.
     *
     * @throws InvalidGraphException when the bytes are not a graph (cut short, say), or name a kind this host does
     *     not know, an edge to no vertex, a value its kind refuses: the message names which
     */
    public static Graph decode(byte[] bytes, Path bundleRoot, Kinds kinds) throws InvalidGraphException {
        try {
            return GraphDecoder.decode(GraphMessage.of(bytes), bundleRoot, kinds);
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidGraphException("not a graph message (" + bytes.length + " bytes): " + e.getMessage(), e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
