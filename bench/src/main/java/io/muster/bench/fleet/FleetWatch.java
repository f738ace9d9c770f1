package io.muster.bench.fleet;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.muster.proto.fleet.CurrentDeploy;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * One watch on the bench's whole namespace, from before anything is written: every write (its kind of key
 * and its size, for the keys and bytes per deploy) and, as they arrive, each host's status and pointer and
 * each current deploy, timed by {@link System#nanoTime()} on arrival. Arrival is what {@code muster status}
 * or {@code deploy --wait} would see too: a watch's delay is in the figures, as it is for users.
 */
final class FleetWatch implements AutoCloseable {
    /** One put or delete: its revision, the kind of key ({@link #kind}) and its key and value bytes. */
    private record Write(long revision, String kind, long bytes) {}

    /** Puts and bytes (keys and values) of one kind of key. */
    record Written(long puts, long bytes) {}

    private final String namespace;
    private final Watch.Watcher watcher;
    private final List<Write> writes = new ArrayList<>();
    private final Map<String, Long> registered = new HashMap<>(); // host → first status
    private final Map<Long, Map<String, Long>> pointed = new HashMap<>(); // deploy → host → its pointer naming it
    private final Map<Long, Map<String, Long>> running = new HashMap<>(); // deploy → host → first status naming it
    private final Map<Long, Map<String, Long>> converged = new HashMap<>(); // deploy → host → first converged status on it
    private final Map<Long, Long> current = new HashMap<>(); // deploy → deploys/current naming it
    private final Map<Long, Map<String, Long>> failed = new HashMap<>(); // deploy → host → first converged status on it with failures
    private final Map<Long, Map<RolloutState, Long>> rollouts = new HashMap<>(); // deploy → its rollout's state → first seen
    private long seen; // the revision of the last event

    FleetWatch(Client client, String namespace, long fromRevision) {
        this.namespace = namespace;
        WatchOption option = WatchOption.builder().isPrefix(true).withRevision(fromRevision).build();
        this.watcher = client.getWatchClient().watch(bytes(namespace), option, this::arrived);
    }

    private synchronized void arrived(WatchResponse response) {
        long now = System.nanoTime();
        for (WatchEvent event : response.getEvents()) {
            String key = event.getKeyValue().getKey().toString(StandardCharsets.UTF_8).substring(namespace.length());
            byte[] value = event.getKeyValue().getValue().getBytes();
            boolean put = event.getEventType() == WatchEvent.EventType.PUT;
            // a delete's key-value carries the revision of the delete
            writes.add(new Write(event.getKeyValue().getModRevision(), kind(key), key.length() + (put ? value.length : 0)));
            if (put) note(key, value, now);
        }
        seen = Math.max(seen, response.getHeader().getRevision());
        notifyAll();
    }

    private void note(String key, byte[] value, long now) {
        String[] parts = key.split("/");
        try {
            if (parts.length == 3 && parts[0].equals("hosts") && parts[2].equals("status")) {
                HostStatus status = HostStatus.parseFrom(value);
                registered.putIfAbsent(parts[1], now);
                if (status.getDeploy() != 0) running.computeIfAbsent(status.getDeploy(), d -> new HashMap<>()).putIfAbsent(parts[1], now);
                if (status.getDeploy() != 0 && status.getConverged() && status.getError().isEmpty() && status.getFailedCount() == 0) {
                    converged.computeIfAbsent(status.getDeploy(), d -> new HashMap<>()).putIfAbsent(parts[1], now);
                }
                if (status.getDeploy() != 0 && status.getConverged() && status.getFailedCount() > 0) {
                    failed.computeIfAbsent(status.getDeploy(), d -> new HashMap<>()).putIfAbsent(parts[1], now);
                }
            } else if (parts.length == 3 && parts[0].equals("hosts") && parts[2].equals("graph")) {
                pointed.computeIfAbsent(GraphPointer.parseFrom(value).getDeploy(), d -> new HashMap<>()).putIfAbsent(parts[1], now);
            } else if (parts.length == 2 && parts[0].equals("rollouts")) {
                Rollout rollout = Rollout.parseFrom(value);
                rollouts.computeIfAbsent(rollout.getDeploy(), d -> new HashMap<>()).putIfAbsent(rollout.getState(), now);
            } else if (key.equals("deploys/current")) {
                current.putIfAbsent(CurrentDeploy.parseFrom(value).getId(), now);
            }
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(key + ": not what muster writes there: " + e.getMessage(), e);
        }
    }

    /** The kind of a key, by its place in the layout (agent/etcd/Keys). */
    static String kind(String key) {
        String[] parts = key.split("/");
        return switch (parts[0]) {
            case "hosts" -> parts.length < 3 ? "host" : switch (parts[2]) {
                case "status" -> "status";
                case "graph" -> "pointer";
                case "alive", "facts" -> "registration";
                default -> "host";
            };
            case "graphs" -> "graph";
            case "blobs" -> "blob";
            case "deploys" -> "deploy";
            case "rollouts" -> "rollout";
            case "coordinator" -> "coordinator";
            case "floor" -> "floor";
            default -> "other";
        };
    }

    /** Waits until {@code n} hosts have written a status; the arrival of the last, or -1 after {@code patience}. */
    synchronized long awaitRegistered(int n, Duration patience) throws InterruptedException {
        return await(() -> registered.size() >= n, patience) ? latest(registered.values()) : -1;
    }

    /** Waits until {@code n} hosts have a converged status on {@code deploy} with nothing failed; the arrival of the last, or -1. */
    synchronized long awaitConverged(long deploy, int n, Duration patience) throws InterruptedException {
        return await(() -> converged.getOrDefault(deploy, Map.of()).size() >= n, patience) ? latest(converged.get(deploy).values()) : -1;
    }

    /** Waits until {@code deploy}'s rollout is {@code state}; when it was first seen so, or -1 after {@code patience}. */
    synchronized long awaitRollout(long deploy, RolloutState state, Duration patience) throws InterruptedException {
        return await(() -> rollouts.getOrDefault(deploy, Map.of()).containsKey(state), patience) ? rollouts.get(deploy).get(state) : -1;
    }

    /** When {@code host} first reported {@code deploy} converged with failed resources; -1 when it did not. */
    synchronized long failed(long deploy, String host) {
        return failed.getOrDefault(deploy, Map.of()).getOrDefault(host, -1L);
    }

    /** The hosts whose pointers named {@code deploy}. */
    synchronized int pointed(long deploy) {
        return pointed.getOrDefault(deploy, Map.of()).size();
    }

    /** How many hosts have converged on {@code deploy} so far. */
    synchronized int converged(long deploy) {
        return converged.getOrDefault(deploy, Map.of()).size();
    }

    /** When the last host's pointer named {@code deploy} (as seen so far); -1 when none did. */
    synchronized long lastPointer(long deploy) {
        return latest(pointed.getOrDefault(deploy, Map.of()).values());
    }

    /** When the last host's status first named {@code deploy}: all run its graph. */
    synchronized long lastRunning(long deploy) {
        return latest(running.getOrDefault(deploy, Map.of()).values());
    }

    /** When deploys/current came to name {@code deploy}; -1 when not seen. */
    synchronized long published(long deploy) {
        return current.getOrDefault(deploy, -1L);
    }

    /** Waits until the watch has seen {@code revision}; false after {@code patience}. */
    synchronized boolean awaitRevision(long revision, Duration patience) throws InterruptedException {
        return await(() -> seen >= revision, patience);
    }

    /** The writes of revisions after {@code from} up to {@code to}, by kind of key (and "all"). */
    synchronized Map<String, Written> written(long from, long to) {
        Map<String, Written> byKind = new TreeMap<>();
        for (Write w : writes) {
            if (w.revision() <= from || w.revision() > to) continue;
            byKind.merge(w.kind(), new Written(1, w.bytes()), FleetWatch::sum);
            byKind.merge("all", new Written(1, w.bytes()), FleetWatch::sum);
        }
        return byKind;
    }

    private static Written sum(Written a, Written b) {
        return new Written(a.puts() + b.puts(), a.bytes() + b.bytes());
    }

    private boolean await(BooleanSupplier done, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        for (long left; !done.getAsBoolean(); ) {
            if ((left = deadline - System.nanoTime()) <= 0) return false;
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    private static long latest(Collection<Long> times) {
        return times.stream().mapToLong(Long::longValue).max().orElse(-1);
    }

    static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        watcher.close();
    }
}
