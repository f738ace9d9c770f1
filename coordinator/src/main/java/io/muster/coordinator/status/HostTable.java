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
            case "status" -> entry.status = Stored.parse(HostStatus.parser(), kv);
            case "graph" -> entry.pointer = Stored.parse(GraphPointer.parser(), kv);
            case "facts" -> entry.facts = true;
            default -> { }
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
        hosts.keySet().forEach(name -> views.add(get(name).orElseThrow()));
        return views;
    }

    /** One host; empty when it has no key. */
    public Optional<HostView> get(String host) {
        Entry e = hosts.get(host);
        return e == null ? Optional.empty() : Optional.of(new HostView(host, e.alive, Optional.ofNullable(e.status), Optional.ofNullable(e.pointer)));
    }

    /** The hosts whose agents are alive, by name. */
    public List<HostView> live() {
        return hosts().stream().filter(HostView::alive).toList();
    }
}
