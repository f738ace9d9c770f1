package io.muster.agent.etcd;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.proto.fleet.Chunked;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Values of any size stored by their sha256 (compiled graphs, bundle files): written once, never changed, so
 * hosts with equal graphs and deploys with equal files share one copy. A value is gzip-compressed when that
 * makes it smaller; one that still exceeds an etcd request is split into chunks written before the header
 * that lists them, so a reader that finds the header finds every chunk, and a writer that dies half-way
 * leaves no header (its chunks are rewritten by the next attempt).
 */
public final class ContentStore {
    /** Below etcd's 1.5 MiB request limit, with room for the key and the request's framing. */
    static final int CHUNK_BYTES = 1 << 20;

    private final Etcd etcd;

    public ContentStore(Etcd etcd) {
        this.etcd = etcd;
    }

    /** The hex sha256 of {@code value}: the name it is stored under. */
    public static String sha256(byte[] value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * Stores {@code value} under {@code key} (which must name its sha256) unless it is there already.
     *
     * @return whether it was written now (false: it was there)
     */
    public boolean put(ByteSequence key, byte[] value) throws EtcdUnreachableException {
        if (etcd.await(etcd.kv().get(key)).getCount() > 0) return false;
        Packed packed = pack(value);
        Chunked.Builder header = packed.header();
        byte[] stored = packed.stored();
        if (stored.length <= CHUNK_BYTES) {
            header.setData(ByteString.copyFrom(stored));
        } else {
            int chunks = (stored.length + CHUNK_BYTES - 1) / CHUNK_BYTES;
            for (int n = 0; n < chunks; n++) {
                int from = n * CHUNK_BYTES;
                int to = Math.min(stored.length, from + CHUNK_BYTES);
                etcd.await(etcd.kv().put(Keys.chunk(key, n), ByteSequence.from(java.util.Arrays.copyOfRange(stored, from, to))));
            }
            header.setChunks(chunks);
        }
        // create-if-absent: two writers of the same content race harmlessly, the second finds it there
        return etcd.await(etcd.kv().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(key, ByteSequence.from(header.build().toByteArray()), PutOption.DEFAULT))
                .commit()).isSucceeded();
    }

    /**
     * What {@link #put} stores under the value's key when it fits in that one key (no chunks), for a writer that
     * puts many values in one transaction (create-if-absent, as {@link #put} does); empty for a value that needs
     * chunks, which only {@link #put} writes.
     */
    public static Optional<ByteSequence> single(byte[] value) {
        Packed packed = pack(value);
        if (packed.stored().length > CHUNK_BYTES) return Optional.empty();
        return Optional.of(ByteSequence.from(packed.header().setData(ByteString.copyFrom(packed.stored())).build().toByteArray()));
    }

    /** A value as stored: gzip-compressed when that makes it smaller, and its header without data or chunks yet. */
    private record Packed(Chunked.Builder header, byte[] stored) {}

    private static Packed pack(byte[] value) {
        byte[] compressed = gzip(value);
        boolean gzip = compressed.length < value.length;
        return new Packed(Chunked.newBuilder().setSize(value.length).setGzip(gzip).setSha256(sha256(value)), gzip ? compressed : value);
    }

    /** Whether {@code key} holds a value. */
    public boolean contains(ByteSequence key) throws EtcdUnreachableException {
        return etcd.await(etcd.kv().get(key, io.etcd.jetcd.options.GetOption.builder().withCountOnly(true).build())).getCount() > 0;
    }

    /**
     * The value under {@code key}, checked against its sha256.
     *
     * @throws CorruptValueException when what is stored is not a value this store wrote, or its digest is wrong
     */
    public Optional<byte[]> get(ByteSequence key) throws EtcdUnreachableException, CorruptValueException {
        GetResponse response = etcd.await(etcd.kv().get(key));
        if (response.getKvs().isEmpty()) return Optional.empty();
        Chunked header = header(key, response.getKvs().get(0));
        byte[] stored;
        if (header.getChunks() == 0) {
            stored = header.getData().toByteArray();
        } else {
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            for (int n = 0; n < header.getChunks(); n++) {
                // one chunk per request: a range of several would pass gRPC's 4 MiB message limit
                GetResponse chunk = etcd.await(etcd.kv().get(Keys.chunk(key, n)));
                if (chunk.getKvs().isEmpty()) throw new CorruptValueException(Keys.text(key) + ": chunk " + n + " of " + header.getChunks() + " is missing");
                joined.writeBytes(chunk.getKvs().get(0).getValue().getBytes());
            }
            stored = joined.toByteArray();
        }
        byte[] value = header.getGzip() ? gunzip(key, stored) : stored;
        if (value.length != header.getSize() || !sha256(value).equals(header.getSha256())) {
            throw new CorruptValueException(Keys.text(key) + ": content does not match its sha256 " + header.getSha256());
        }
        return Optional.of(value);
    }

    private static Chunked header(ByteSequence key, KeyValue kv) throws CorruptValueException {
        try {
            return Chunked.parseFrom(kv.getValue().getBytes());
        } catch (InvalidProtocolBufferException e) {
            throw new CorruptValueException(Keys.text(key) + ": not a stored value (" + e.getMessage() + ")");
        }
    }

    private static byte[] gzip(byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length / 4 + 64);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(value);
        } catch (IOException e) {
            throw new UncheckedIOException("compressing in memory", e);
        }
        return out.toByteArray();
    }

    private static byte[] gunzip(ByteSequence key, byte[] stored) throws CorruptValueException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(stored))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new CorruptValueException(Keys.text(key) + ": cannot decompress (" + e.getMessage() + ")");
        }
    }

    /** What is stored under a key is not what this store wrote there. */
    public static final class CorruptValueException extends Exception {
        public CorruptValueException(String message) {
            super(message);
        }
    }
}
