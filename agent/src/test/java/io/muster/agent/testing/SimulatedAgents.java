package io.muster.agent.testing;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.proto.fleet.Failure;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Agents as the coordinator sees them: each host reports its pointer's deploy converged as soon as the pointer
 * comes (failed when it is in {@link #failing}, nothing while it is in {@link #held}), and every pointer a host
 * was given is kept, in order.
 */
public final class SimulatedAgents implements AutoCloseable {
    /** Hosts that report their deploy converged with a failed resource. */
    public final Set<String> failing = ConcurrentHashMap.newKeySet();
    /** Hosts that report nothing. */
    public final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Map<String, List<GraphPointer>> pointers = new ConcurrentHashMap<>();
    private final Etcd etcd;
    private final ExecutorService reports = Executors.newSingleThreadExecutor();
    private final Watch.Watcher watcher;

    public SimulatedAgents(Etcd etcd) {
        this.etcd = etcd;
        this.watcher = etcd.jetcd().getWatchClient().watch(Keys.HOSTS, WatchOption.builder().isPrefix(true).build(), response -> {
            for (WatchEvent e : response.getEvents()) {
                Keys.HostKey key = Keys.parseHostKey(e.getKeyValue().getKey());
                if (key == null || !key.what().equals("graph") || e.getEventType() != WatchEvent.EventType.PUT) continue;
                GraphPointer pointer = parse(e.getKeyValue().getValue());
                pointers.computeIfAbsent(key.host(), h -> new ArrayList<>()).add(pointer);
                reports.execute(() -> report(key.host()));
            }
        });
    }

    /** The pointers {@code host} was given, in order. */
    public List<GraphPointer> pointers(String host) {
        return List.copyOf(pointers.getOrDefault(host, List.of()));
    }

    /** How many pointers to {@code deploy} {@code host} was given. */
    public long times(String host, long deploy) {
        return pointers(host).stream().filter(p -> p.getDeploy() == deploy).count();
    }

    /** Reports {@code host}'s last pointer's deploy as it stands: converged, or failed when failing; nothing while held. */
    public void report(String host) {
        List<GraphPointer> given = pointers(host);
        if (given.isEmpty() || held.contains(host)) return;
        GraphPointer last = given.getLast();
        HostStatus.Builder status = HostStatus.newBuilder().setDeploy(last.getDeploy()).setGraph(last.getGraph()).setConverged(true)
                .setUpdated(System.currentTimeMillis());
        if (failing.contains(host)) status.addFailed(Failure.newBuilder().setId("file#/etc/app.conf").setError("disk full"));
        try {
            etcd.await(etcd.kv().put(Keys.status(host), ByteSequence.from(status.build().toByteArray())));
        } catch (EtcdUnreachableException e) {
            throw new IllegalStateException(e);
        }
    }

    private static GraphPointer parse(ByteSequence value) {
        try {
            return GraphPointer.parseFrom(value.getBytes());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        watcher.close();
        reports.shutdownNow();
    }
}
