package io.muster.coordinator.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Reads a range of keys a page at a time, all pages at the revision of the first: one range of thousands of
 * hosts would pass gRPC's 4 MiB message limit and hold etcd up, and pages at one revision give one consistent
 * picture, which a watch can then follow from the revision after.
 */
public final class Pages {
    static final int PAGE = 500;

    private Pages() {}

    /**
     * Gives every key under {@code prefix} to {@code each}, in key order.
     *
     * @return the revision read at
     */
    public static long forEach(Etcd etcd, ByteSequence prefix, Consumer<KeyValue> each) throws EtcdUnreachableException {
        return forEach(etcd, prefix, end(prefix), each);
    }

    /** Gives every key in [{@code from}, {@code end}) to {@code each}, in key order; returns the revision read at. */
    public static long forEach(Etcd etcd, ByteSequence from, ByteSequence end, Consumer<KeyValue> each) throws EtcdUnreachableException {
        return forEachWhile(etcd, from, end, kv -> {
            each.accept(kv);
            return true;
        });
    }

    /**
     * Gives the keys under {@code prefix} to {@code each}, in key order, until it returns false: no page after the
     * one holding that key is read. Returns the revision read at.
     */
    public static long forEachWhile(Etcd etcd, ByteSequence prefix, Predicate<KeyValue> each) throws EtcdUnreachableException {
        return forEachWhile(etcd, prefix, end(prefix), each);
    }

    private static long forEachWhile(Etcd etcd, ByteSequence from, ByteSequence end, Predicate<KeyValue> each) throws EtcdUnreachableException {
        ByteSequence start = from;
        long revision = 0;
        while (true) {
            GetOption.Builder option = GetOption.builder().withRange(end).withLimit(PAGE);
            if (revision > 0) option.withRevision(revision);
            GetResponse page = etcd.await(etcd.kv().get(start, option.build()));
            if (revision == 0) revision = page.getHeader().getRevision();
            for (KeyValue kv : page.getKvs()) {
                if (!each.test(kv)) return revision;
            }
            if (!page.isMore() || page.getKvs().isEmpty()) return revision;
            start = after(page.getKvs().getLast().getKey());
        }
    }

    /** The first key after every key that starts with {@code prefix}. */
    public static ByteSequence end(ByteSequence prefix) {
        byte[] bytes = prefix.getBytes();
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] != (byte) 0xff) {
                byte[] end = Arrays.copyOf(bytes, i + 1);
                end[i]++;
                return ByteSequence.from(end);
            }
        }
        throw new IllegalArgumentException("no key follows a prefix of 0xff bytes");
    }

    private static ByteSequence after(ByteSequence key) {
        byte[] bytes = Arrays.copyOf(key.getBytes(), key.size() + 1);
        return ByteSequence.from(bytes);
    }
}
