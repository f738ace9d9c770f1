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
    /** A vertex and its edges, in the order they were given (lists made on its first edge: most files have one). */
    private static final class Node {
        final Vertex vertex;
        List<Edge> incoming = List.of();
        List<Edge> outgoing = List.of();

        Node(Vertex vertex) {
            this.vertex = vertex;
        }

        void from(Edge e) {
            if (outgoing.isEmpty()) outgoing = new ArrayList<>(2);
            outgoing.add(e);
        }

        void to(Edge e) {
            if (incoming.isEmpty()) incoming = new ArrayList<>(2);
            incoming.add(e);
        }
    }

    private final Map<String, Node> nodes; // in the vertices' order
    private final List<Vertex> vertices;
    private final List<Edge> edges;
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
        this.nodes = LinkedHashMap.newLinkedHashMap(vertices.size());
        for (Vertex v : vertices) {
            if (nodes.put(v.id(), new Node(v)) != null) throw new IllegalArgumentException("two vertices with the id " + v.id());
        }
        this.vertices = List.copyOf(vertices);
        this.edges = List.copyOf(edges);
        for (Edge e : this.edges) {
            Node from = nodes.get(e.from());
            Node to = nodes.get(e.to());
            if (from == null || to == null) {
                throw new IllegalArgumentException("edge " + e.from() + " -> " + e.to() + " (" + e.reason().label() + "): no vertex "
                        + (from == null ? e.from() : e.to()));
            }
            from.from(e);
            to.to(e);
        }
        List<String> cycle = Cycles.find(nodes.keySet(), this.edges);
        if (!cycle.isEmpty()) throw new IllegalArgumentException("dependency cycle: " + String.join(" -> ", cycle));
    }

    private Graph(Graph graph, Set<Path> manifests, Bundle bundle, List<Collect> collects) {
        this.nodes = graph.nodes;
        this.vertices = graph.vertices;
        this.edges = graph.edges;
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
        return vertices;
    }

    public Set<String> ids() {
        return Collections.unmodifiableSet(nodes.keySet());
    }

    public Vertex vertex(String id) {
        Node node = nodes.get(id);
        return node == null ? null : node.vertex;
    }

    public List<Edge> edges() {
        return edges;
    }

    /** The edges into {@code id}, null when it is no vertex of this graph. */
    public List<Edge> incoming(String id) {
        Node node = nodes.get(id);
        return node == null ? null : Collections.unmodifiableList(node.incoming);
    }

    /** The edges out of {@code id}, null when it is no vertex of this graph. */
    public List<Edge> outgoing(String id) {
        Node node = nodes.get(id);
        return node == null ? null : Collections.unmodifiableList(node.outgoing);
    }

    public int size() {
        return nodes.size();
    }
}
