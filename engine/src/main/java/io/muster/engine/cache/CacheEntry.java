package io.muster.engine.cache;

import io.muster.engine.util.Json;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One cached graph as stored: a magic line, a JSON header (the key of the command line and build, and the
 * {@link CompileInputs}), the encoded graph, each behind its length, and the CRC32C of all that: an entry cut short
 * or changed does not read back.
 *
 * @param key what the command line and the build make of the compilation ({@link GraphCache}), compared as is
 * @param graph the graph as {@link io.muster.engine.codec.GraphCodec} encodes it
 */
record CacheEntry(String key, CompileInputs inputs, byte[] graph) {
    private static final byte[] MAGIC = "muster graph cache 2\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DIGEST = 4;

    /** An entry that is not one this build wrote whole. */
    static final class Corrupt extends Exception {
        Corrupt(String message, Throwable cause) {
            super(message, cause);
        }
    }

    byte[] bytes() {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("key", key);
        header.put("inputs", inputs.toJson());
        byte[] json = Json.pretty(header).getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(MAGIC.length + 4 + json.length + 4 + graph.length + DIGEST);
        out.put(MAGIC).putInt(json.length).put(json).putInt(graph.length).put(graph);
        out.putInt(Fingerprint.checksum(out.array(), out.position()));
        return out.array();
    }

    static CacheEntry read(byte[] bytes) throws Corrupt {
        try {
            int body = bytes.length - DIGEST;
            if (body < MAGIC.length || Fingerprint.checksum(bytes, body) != ByteBuffer.wrap(bytes, body, DIGEST).getInt()) {
                throw new Corrupt("its checksum does not match (" + bytes.length + " bytes)", null);
            }
            ByteBuffer in = ByteBuffer.wrap(bytes, 0, body);
            byte[] magic = new byte[MAGIC.length];
            in.get(magic);
            if (!Arrays.equals(magic, MAGIC)) throw new Corrupt("not a cache entry of this format", null);
            byte[] json = new byte[in.getInt()];
            in.get(json);
            byte[] graph = new byte[in.getInt()];
            in.get(graph);
            if (in.hasRemaining()) throw new Corrupt(in.remaining() + " bytes after the graph", null);
            Map<?, ?> header = (Map<?, ?>) Json.parse(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(json)).toString());
            return new CacheEntry((String) header.get("key"), CompileInputs.fromJson(header.get("inputs")), graph);
        } catch (BufferUnderflowException | IllegalArgumentException | ClassCastException | NullPointerException
                 | NegativeArraySizeException | CharacterCodingException e) {
            throw new Corrupt("cannot read its header: " + e, e);
        }
    }
}
