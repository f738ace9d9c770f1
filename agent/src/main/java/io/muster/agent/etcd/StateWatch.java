package io.muster.agent.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.support.Errors;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole state of a key (or of every key under a prefix), now and after each change, kept by
 * list-then-watch: a get, then a watch from the get's revision + 1, so no change between the two is lost.
 * When etcd is away, jetcd resumes the watch by itself from the last revision seen (its listener still hears
 * an error, which is not the end); a watch that jetcd gives up (the revision was compacted, or etcd refuses
 * it) is started again from a new list, after a jittered backoff. Each call carries the whole state (key
 * text → what the watch keeps of each key: its value, or what {@code keep} makes of it); a state equal to the
 * last one told is not told again. Calls to the listener never overlap, and are made under this watch's lock: a
 * listener only takes note and returns.
 *
 * @param <T> what is kept of each key
 */
public final class StateWatch<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("muster.agent");

    private final Etcd etcd;
    private final ByteSequence key;
    private final boolean prefix;
    private final Function<KeyValue, T> keep;
    private final Consumer<SortedMap<String, T>> listener;
    private final Backoff backoff;
    private final Object lock = new Object();
    private final SortedMap<String, T> state = new TreeMap<>(); // guarded by lock
    private SortedMap<String, T> told; // guarded by lock
    /**
     * Whether a key's kept value changed since the last tell (guarded by lock): most events change nothing that is
     * kept (the coordinator's watch of hosts/ keeps only alive keys, and hears every status write), and comparing
     * the whole state on each would cost the coordinator a thousand comparisons per event in a fleet of a thousand.
     */
    private boolean changed; // guarded by lock
    private int generation; // guarded by lock: the list the current watch continues
    private boolean restart; // guarded by lock: the watch ended, list again
    private boolean closed; // guarded by lock
    private final Thread thread;

    /**
     * Starts watching the values of {@code key}.
     *
     * @param prefix whether {@code key} is a prefix (every key under it) or one key
     */
    public static StateWatch<ByteSequence> values(Etcd etcd, ByteSequence key, boolean prefix, Backoff backoff,
                                                   Consumer<SortedMap<String, ByteSequence>> listener) {
        return new StateWatch<>(etcd, key, prefix, backoff, KeyValue::getValue, listener);
    }

    /**
     * Starts watching.
     *
     * @param prefix whether {@code key} is a prefix (every key under it) or one key
     * @param keep what to keep of a key; null leaves the key out of the state, as if it were not there
     */
    public StateWatch(Etcd etcd, ByteSequence key, boolean prefix, Backoff backoff, Function<KeyValue, T> keep,
                      Consumer<SortedMap<String, T>> listener) {
        this.etcd = etcd;
        this.key = key;
        this.prefix = prefix;
        this.backoff = backoff;
        this.keep = keep;
        this.listener = listener;
        // the first list is made now, so the first call is the state as the watch began (when etcd answers)
        GetResponse first;
        try {
            first = list();
        } catch (EtcdUnreachableException e) {
            first = null;
        }
        GetResponse listed = first;
        this.thread = Thread.ofVirtual().name("watch " + Keys.text(key)).start(() -> run(listed));
    }

    private GetResponse list() throws EtcdUnreachableException {
        return etcd.await(etcd.kv().get(key, GetOption.builder().isPrefix(prefix).build()));
    }

    /** @param first the first list, made already; null when it failed */
    private void run(GetResponse first) {
        while (true) {
            synchronized (lock) {
                if (closed) return;
                restart = false;
            }
            Watch.Watcher watcher = null;
            try {
                GetResponse list = first != null ? first : list();
                first = null;
                int listed;
                synchronized (lock) {
                    state.clear();
                    changed = true;
                    for (KeyValue kv : list.getKvs()) put(kv);
                    listed = ++generation;
                    tell();
                }
                WatchOption from = WatchOption.builder().isPrefix(prefix).withRevision(list.getHeader().getRevision() + 1).build();
                watcher = etcd.jetcd().getWatchClient().watch(key, from, Watch.listener(r -> changed(listed, r), e -> failed(listed, e)));
                backoff.reset();
                synchronized (lock) {
                    while (!closed && !restart) lock.wait();
                }
            } catch (EtcdUnreachableException e) {
                LOG.debug("listing {}: {}", Keys.text(key), e.getMessage());
                if (!Waits.pause(lock, backoff.next(), () -> closed)) return;
            } catch (InterruptedException e) {
                return;
            } finally {
                if (watcher != null) watcher.close();
            }
        }
    }

    private void changed(int listed, WatchResponse response) {
        synchronized (lock) {
            if (closed || listed != generation) return;
            for (WatchEvent event : response.getEvents()) {
                if (event.getEventType() == WatchEvent.EventType.DELETE) changed |= state.remove(Keys.text(event.getKeyValue().getKey())) != null;
                else put(event.getKeyValue());
            }
            tell();
        }
    }

    private void put(KeyValue kv) {
        T kept = keep.apply(kv);
        String name = Keys.text(kv.getKey());
        T before = kept == null ? state.remove(name) : state.put(name, kept);
        changed |= !java.util.Objects.equals(before, kept);
    }

    private void failed(int listed, Throwable error) {
        // jetcd resumes a watch by itself after an unavailable etcd; any other error ends it: list again
        boolean resumed = !(error instanceof CompactedException) && error instanceof EtcdException etcdError
                && (etcdError.getErrorCode() == ErrorCode.UNAVAILABLE || etcdError.getErrorCode() == ErrorCode.INTERNAL)
                && !String.valueOf(error.getMessage()).contains(Errors.NO_LEADER_ERROR_MESSAGE);
        LOG.debug("watch of {}: {} ({})", Keys.text(key), error.getMessage(), resumed ? "jetcd resumes it" : "listing again");
        if (resumed) return;
        synchronized (lock) {
            if (listed != generation) return;
            restart = true;
            lock.notifyAll();
        }
    }

    private void tell() {
        if (closed || !changed) return;
        changed = false;
        if (state.equals(told)) return;
        told = new TreeMap<>(state);
        try {
            listener.accept(java.util.Collections.unmodifiableSortedMap(told));
        } catch (RuntimeException e) {
            LOG.warn("the listener of the watch of {} failed: {}", Keys.text(key), e.toString());
        }
    }

    /** Ends the watch; no call begins after this returns. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a state told holds of {@code key}, or null. */
    public static <T> T value(Map<String, T> state, ByteSequence key) {
        return state.get(Keys.text(key));
    }
}
