package io.muster.engine.graph;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resources and the edges between them, in the order they were declared, and the {@link Bundle} they run in.
 * Checked when built: ids are unique, every edge joins two of its vertices, and no edge makes a cycle, so a
 * graph read from elsewhere is as sound as one just compiled.
 */
public final class Graph {
    private final Map<String, Vertex> vertices;
    private final List<Edge> edges;
    private final Map<String, List<Edge>> incoming;
    private final Map<String, List<Edge>> outgoing;
    private final Set<Path> manifests;
    private final Bundle bundle;
    private final List<Collect> collects;

    /**
     * A graph of {@code vertices} and {@code edges}, from no manifest file and in no bundle until {@link #compiledFrom}
     * names them.
     *
     * @throws IllegalArgumentException naming what is wrong: two vertices with one id, an edge to or from an id that
     *     is not a vertex, a cycle
     */
    public Graph(Collection<Vertex> vertices, List<Edge> edges) {
        this.manifests = Set.of();
        this.bundle = Bundle.NONE;
        this.collects = List.of();
        this.incoming = new LinkedHashMap<>();
        this.outgoing = new LinkedHashMap<>();
        this.vertices = new LinkedHashMap<>();
        for (Vertex v : vertices) {
            if (this.vertices.put(v.id(), v) != null) throw new IllegalArgumentException("two vertices with the id " + v.id());
            incoming.put(v.id(), new ArrayList<>());
            outgoing.put(v.id(), new ArrayList<>());
        }
        this.edges = List.copyOf(edges);
        for (Edge e : edges) {
            List<Edge> from = outgoing.get(e.from());
            List<Edge> to = incoming.get(e.to());
            if (from == null || to == null) {
                throw new IllegalArgumentException("edge " + e.from() + " -> " + e.to() + " (" + e.reason().label() + "): no vertex "
                        + (from == null ? e.from() : e.to()));
            }
            from.add(e);
            to.add(e);
        }
        List<String> cycle = Cycles.find(this.vertices.keySet(), this.edges);
        if (!cycle.isEmpty()) throw new IllegalArgumentException("dependency cycle: " + String.join(" -> ", cycle));
    }

    private Graph(Graph graph, Set<Path> manifests, Bundle bundle, List<Collect> collects) {
        this.vertices = graph.vertices;
        this.edges = graph.edges;
        this.incoming = graph.incoming;
        this.outgoing = graph.outgoing;
        this.manifests = Set.copyOf(manifests);
        this.bundle = bundle;
        this.collects = List.copyOf(collects);
    }

    /** This graph, as compiled from {@code manifests} (none for a graph read from elsewhere), in {@code bundle}. */
    public Graph compiledFrom(Set<Path> manifests, Bundle bundle) {
        return new Graph(this, manifests, bundle, collects);
    }

    /** This graph with the {@code collect:} blocks of its manifests. */
    public Graph collecting(List<Collect> blocks) {
        return new Graph(this, manifests, bundle, blocks);
    }

    /** The {@code collect:} blocks of its manifests, in the order read: what other hosts' exports may join it. */
    public List<Collect> collects() {
        return collects;
    }

    /** The manifest files it was compiled from (absolute): the one given and those its aggregates include. */
    public Set<Path> manifests() {
        return manifests;
    }

    public Bundle bundle() {
        return bundle;
    }

    public Collection<Vertex> vertices() {
        return vertices.values();
    }

    public Set<String> ids() {
        return Collections.unmodifiableSet(vertices.keySet());
    }

    public Vertex vertex(String id) {
        return vertices.get(id);
    }

    public List<Edge> edges() {
        return edges;
    }

    public List<Edge> incoming(String id) {
        return incoming.get(id);
    }

    public List<Edge> outgoing(String id) {
        return outgoing.get(id);
    }

    public int size() {
        return vertices.size();
    }
}
