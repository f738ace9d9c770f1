package io.muster.engine.world;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The World of a single-host run ({@code apply}, {@code run}: {@link #alone}) and of tests (where several share
 * exports, standing in for a fleet): everything in memory, gone when the process ends. Thread-safe: one lock orders every change, and each change is offered to its watchers
 * under that lock, so each sees every change exactly once and in that order. Futures complete before they
 * are returned.
 */
public final class MemoryWorld implements World {
    private static final Comparator<Exported> BY_HOST_AND_NAME = Comparator.comparing(Exported::host).thenComparing(Exported::name);

    private final String host;
    private final boolean reachesOtherHosts;
    private final Object lock = new Object();
    private final Map<Key, String> values = new HashMap<>(); // guarded by lock
    private final Map<Key, List<Delivery<Optional<String>>>> valueWatches = new HashMap<>(); // guarded by lock
    private final Map<String, Map<String, Exported>> exports = new HashMap<>(); // guarded by lock: kind -> name -> export
    private final Map<String, List<Delivery<List<Exported>>>> collections = new HashMap<>(); // guarded by lock: by kind

    /** A World other hosts may read, as tests join them. */
    public MemoryWorld(String host) {
        this(host, true);
    }

    private MemoryWorld(String host, boolean reachesOtherHosts) {
        Checks.name("host", host);
        this.host = host;
        this.reachesOtherHosts = reachesOtherHosts;
    }

    /** The World of {@code host} running with no fleet: nobody else reads it. */
    public static MemoryWorld alone(String host) {
        return new MemoryWorld(host, false);
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public boolean reachesOtherHosts() {
        return reachesOtherHosts;
    }

    @Override
    public CompletableFuture<Optional<String>> get(Key key) {
        synchronized (lock) {
            return CompletableFuture.completedFuture(Optional.ofNullable(values.get(key)));
        }
    }

    @Override
    public CompletableFuture<Void> put(Key key, String value) {
        Checks.value(value);
        return change(key, value);
    }

    @Override
    public CompletableFuture<Void> delete(Key key) {
        return change(key, null);
    }

    private CompletableFuture<Void> change(Key key, String value) {
        synchronized (lock) {
            String old = value == null ? values.remove(key) : values.put(key, value);
            if (!Objects.equals(old, value)) {
                for (Delivery<Optional<String>> d : valueWatches.getOrDefault(key, List.of())) d.offer(Optional.ofNullable(value));
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Registration watch(Key key, Consumer<Optional<String>> listener) {
        synchronized (lock) {
            List<Delivery<Optional<String>>> watches = valueWatches.computeIfAbsent(key, k -> new ArrayList<>());
            Delivery<Optional<String>> delivery = new Delivery<>("watch of " + key, listener, d -> forget(valueWatches, key, d));
            watches.add(delivery);
            delivery.offer(Optional.ofNullable(values.get(key)));
            return delivery;
        }
    }

    @Override
    public CompletableFuture<Void> publish(String kind, String name, String content) {
        Exported export = new Exported(host, kind, name, content);
        synchronized (lock) {
            if (!export.equals(exports.computeIfAbsent(kind, k -> new HashMap<>()).put(name, export))) collectionChanged(kind);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> withdraw(String kind, String name) {
        synchronized (lock) {
            Map<String, Exported> ofKind = exports.get(kind);
            if (ofKind != null && ofKind.remove(name) != null) collectionChanged(kind);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Registration collect(String kind, Consumer<List<Exported>> listener) {
        Checks.name("kind", kind);
        synchronized (lock) {
            Delivery<List<Exported>> delivery = new Delivery<>("collection of " + kind, listener, d -> forget(collections, kind, d));
            collections.computeIfAbsent(kind, k -> new ArrayList<>()).add(delivery);
            delivery.offer(collection(kind));
            return delivery;
        }
    }

    private void collectionChanged(String kind) {
        List<Exported> now = collection(kind);
        for (Delivery<List<Exported>> d : collections.getOrDefault(kind, List.of())) d.offer(now);
    }

    private List<Exported> collection(String kind) {
        return exports.getOrDefault(kind, Map.of()).values().stream().sorted(BY_HOST_AND_NAME).toList();
    }

    /** Drops a closed delivery, so that watching and closing again and again leaves nothing behind. */
    private <K, T> void forget(Map<K, List<Delivery<T>>> deliveries, K key, Delivery<T> closed) {
        synchronized (lock) {
            List<Delivery<T>> list = deliveries.get(key);
            if (list != null && list.remove(closed) && list.isEmpty()) deliveries.remove(key);
        }
    }
}
