package io.muster.coordinator.status;

import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Stored;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** The hosts under {@code hosts/}, kept up to date key by key from a listing and then a watch. */
public final class HostTable {
    private static final class Entry {
        boolean alive;
        boolean facts;
        HostStatus status;
        GraphPointer pointer;

        boolean empty() {
            return !alive && !facts && status == null && pointer == null;
        }
    }

    private final TreeMap<String, Entry> hosts = new TreeMap<>();

    public void put(KeyValue kv) {
        Keys.HostKey key = Keys.parseHostKey(kv.getKey());
        if (key == null) return;
        Entry entry = hosts.computeIfAbsent(key.host(), h -> new Entry());
        switch (key.what()) {
            case "alive" -> entry.alive = true;
            case "status" -> entry.status = status(kv);
            case "graph" -> entry.pointer = Stored.parse(GraphPointer.parser(), kv);
            case "facts" -> entry.facts = true;
            default -> { }
        }
    }

    /**
     * The status a host wrote; one that is not a status (its host wrote it, and may be anything) is shown as that
     * host's error, so it never hides the rest of the fleet.
     */
    private static HostStatus status(KeyValue kv) {
        try {
            return Stored.parse(HostStatus.parser(), kv);
        } catch (Stored.CorruptKeyException e) {
            return HostStatus.newBuilder().setError(e.getMessage()).build();
        }
    }

    public void delete(KeyValue kv) {
        Keys.HostKey key = Keys.parseHostKey(kv.getKey());
        if (key == null) return;
        Entry entry = hosts.get(key.host());
        if (entry == null) return;
        switch (key.what()) {
            case "alive" -> entry.alive = false;
            case "status" -> entry.status = null;
            case "graph" -> entry.pointer = null;
            case "facts" -> entry.facts = false;
            default -> { }
        }
        if (entry.empty()) hosts.remove(key.host());
    }

    /** Every host with a key, by name. */
    public List<HostView> hosts() {
        List<HostView> views = new ArrayList<>(hosts.size());
        hosts.forEach((name, e) -> views.add(view(name, e)));
        return views;
    }

    /** One host; empty when it has no key. */
    public Optional<HostView> host(String name) {
        Entry entry = hosts.get(name);
        return entry == null ? Optional.empty() : Optional.of(view(name, entry));
    }

    private static HostView view(String name, Entry e) {
        return new HostView(name, e.alive, Optional.ofNullable(e.status), Optional.ofNullable(e.pointer));
    }

    /** The hosts whose agents are alive, by name. */
    public List<HostView> live() {
        return hosts().stream().filter(HostView::alive).toList();
    }
}
