package io.muster.engine.exports;

import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.engine.codec.InvalidGraphException;
import io.muster.engine.codec.PlainCodec;
import io.muster.engine.util.Plain;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A resource as its exporter rendered it, and its encoding as an export's content: base64 of the {@code
 * muster.graph.ExportedResource} message (version 1), its parameters in the graph's value encoding ({@link
 * PlainCodec}), so a collector reads back exactly the values the exporter typed.
 *
 * @param params every property, late ones rendered, in the order written
 * @param to host patterns of who may collect it; none: any host
 */
public record ExportedResource(String kind, String name, Map<String, Object> params, List<String> tags, List<String> to) {
    /** The only version collectors read; another one is rejected, never guessed at. */
    public static final int VERSION = 1;

    public ExportedResource {
        params = Plain.map(params);
        tags = List.copyOf(tags);
        to = List.copyOf(to);
    }

    /** The content to publish. */
    public String encode() {
        byte[] bytes = io.muster.proto.graph.ExportedResource.newBuilder().setVersion(VERSION).setKind(kind).setName(name)
                .setParams(PlainCodec.encodeMap(params)).addAllTags(tags).addAllTo(to).build().toByteArray();
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * The resource {@code content} encodes.
     *
     * @throws IllegalArgumentException saying why it is not one: not base64, not the message, another version
     */
    public static ExportedResource decode(String content) {
        try {
            var message = io.muster.proto.graph.ExportedResource.parseFrom(Base64.getDecoder().decode(content));
            if (message.getVersion() != VERSION) {
                throw new IllegalArgumentException("export format version " + message.getVersion() + ", this muster reads " + VERSION);
            }
            return new ExportedResource(message.getKind(), message.getName(), PlainCodec.decodeMap(message.getParams(), "params"),
                    message.getTagsList(), message.getToList());
        } catch (InvalidProtocolBufferException | InvalidGraphException e) {
            throw new IllegalArgumentException("not an exported resource: " + e.getMessage());
        }
    }
}
