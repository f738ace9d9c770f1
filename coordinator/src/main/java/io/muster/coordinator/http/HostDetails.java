package io.muster.coordinator.http;

import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.status.FleetStatus;
import io.muster.coordinator.status.HostView;
import io.muster.engine.codec.InvalidGraphException;
import io.muster.engine.codec.PlainCodec;
import io.muster.proto.fleet.Facts;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.graph.Graph;
import io.muster.proto.graph.Mark;
import io.muster.proto.graph.Vertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code /api/v1/hosts/NAME}: a host's row, and what only this page needs, read from etcd for the one host: its
 * facts, a summary of the graph it runs (resources by kind, edges, manifests), its failed resources each with
 * the manifest file, line and column it is written at (from the graph's marks), what it exports, and its recent
 * events. Shape: the row's fields, {@code failed} entries gaining {@code "file", "line", "column"} (null when
 * the graph does not hold the resource: a collected one), then {@code "facts", "graph": {"sha256", "deploy",
 * "resources", "kinds": {kind: n}, "edges", "manifests"}, "graph_error", "exports", "events": [{"id", "type",
 * "data"}]}}; what cannot be read is null.
 */
final class HostDetails {
    private static final int EVENTS = 20;

    private final Etcd etcd;
    private final EventLog log;

    HostDetails(Etcd etcd, EventLog log) {
        this.etcd = etcd;
        this.log = log;
    }

    /** The host's document; null when no key of it is in etcd. */
    Map<String, Object> read(String name, long current) throws EtcdUnreachableException {
        FleetStatus fleet = FleetStatus.read(etcd, name);
        HostView host = fleet.hosts().stream().filter(h -> h.host().equals(name)).findFirst().orElse(null);
        if (host == null) return null;
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", io.muster.engine.report.JsonDocument.SCHEMA);
        doc.putAll(FleetFeed.row(host, current));
        String sha = host.status().map(HostStatus::getGraph).filter(g -> !g.isEmpty())
                .orElse(host.pointer().map(p -> p.getGraph()).orElse(""));
        Graph graph = null;
        String graphError = null;
        if (!sha.isEmpty()) {
            try {
                graph = Graph.parseFrom(new ContentStore(etcd).get(Keys.graph(name, sha)).orElseThrow(() -> new InvalidProtocolBufferException("not in etcd")));
            } catch (InvalidProtocolBufferException | ContentStore.CorruptValueException e) {
                graphError = "graph " + sha + ": " + e.getMessage();
            }
        }
        doc.put("failed", failed(host, graph));
        doc.put("facts", facts(name));
        doc.put("graph", graph == null ? null : summary(graph, sha, host));
        doc.put("graph_error", graphError);
        doc.put("exports", fleet.exportsOf(name));
        List<Object> events = new ArrayList<>();
        for (EventLog.Event e : log.about(name, EVENTS)) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", log.id(e.n()));
            one.put("type", e.type());
            one.put("data", e.data());
            events.add(one);
        }
        doc.put("events", events);
        return doc;
    }

    private Object facts(String host) throws EtcdUnreachableException {
        var kvs = etcd.await(etcd.kv().get(Keys.facts(host))).getKvs();
        if (kvs.isEmpty()) return null;
        try {
            return PlainCodec.decodeMap(Facts.parseFrom(kvs.getFirst().getValue().getBytes()).getFacts(), "facts");
        } catch (InvalidProtocolBufferException | InvalidGraphException e) {
            return null; // the agent's facts key is not facts: the compile says so in the host's error
        }
    }

    private static List<Object> failed(HostView host, Graph graph) {
        Map<String, Mark> marks = new HashMap<>();
        if (graph != null) {
            for (Vertex v : graph.getVerticesList()) {
                marks.put(v.getKind() + "#" + v.getName(), v.getMark());
                for (Vertex g : v.getGroupedList()) marks.put(g.getKind() + "#" + g.getName(), g.getMark());
            }
        }
        List<Object> failed = new ArrayList<>();
        host.status().ifPresent(s -> s.getFailedList().forEach(f -> {
            Mark mark = marks.get(f.getId());
            boolean known = mark != null && mark.getManifest() < graph.getManifestsCount();
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", f.getId());
            one.put("error", f.getError());
            one.put("file", known ? graph.getManifests(mark.getManifest()) : null);
            one.put("line", known ? (Object) mark.getLine() : null);
            one.put("column", known ? (Object) mark.getColumn() : null);
            failed.add(one);
        }));
        return failed;
    }

    private static Map<String, Object> summary(Graph graph, String sha, HostView host) {
        Map<String, Integer> kinds = new TreeMap<>();
        for (Vertex v : graph.getVerticesList()) kinds.merge(v.getKind(), 1, Integer::sum);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("sha256", sha);
        summary.put("deploy", host.status().filter(s -> s.getGraph().equals(sha)).map(s -> (Object) s.getDeploy())
                .orElse(host.pointer().map(p -> (Object) p.getDeploy()).orElse(null)));
        summary.put("resources", kinds.values().stream().mapToInt(Integer::intValue).sum());
        summary.put("kinds", kinds);
        summary.put("edges", graph.getEdgesCount());
        summary.put("manifests", graph.getManifestsList());
        return summary;
    }
}
