package io.muster.engine.graph;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Resources and the edges between them, in the order they were declared. Acyclic by construction. */
public final class Graph {
    private final Map<String, Vertex> vertices;
    private final List<Edge> edges;
    private final Map<String, List<Edge>> incoming;
    private final Map<String, List<Edge>> outgoing;
    private final Set<Path> manifests;

    /** A graph of {@code vertices} and {@code edges}, from no manifest file until {@link #compiledFrom} names them. */
    public Graph(Collection<Vertex> vertices, List<Edge> edges) {
        this.manifests = Set.of();
        this.incoming = new LinkedHashMap<>();
        this.outgoing = new LinkedHashMap<>();
        this.vertices = new LinkedHashMap<>();
        for (Vertex v : vertices) {
            this.vertices.put(v.id(), v);
            incoming.put(v.id(), new ArrayList<>());
            outgoing.put(v.id(), new ArrayList<>());
        }
        this.edges = List.copyOf(edges);
        for (Edge e : edges) {
            outgoing.get(e.from()).add(e);
            incoming.get(e.to()).add(e);
        }
    }

    private Graph(Graph graph, Set<Path> manifests) {
        this.vertices = graph.vertices;
        this.edges = graph.edges;
        this.incoming = graph.incoming;
        this.outgoing = graph.outgoing;
        this.manifests = Set.copyOf(manifests);
    }

    /** This graph, as compiled from {@code manifests}. */
    public Graph compiledFrom(Set<Path> manifests) {
        return new Graph(this, manifests);
    }

    /** The manifest files it was compiled from (absolute): the one given and those its aggregates include. */
    public Set<Path> manifests() {
        return manifests;
    }

    public Collection<Vertex> vertices() {
        return vertices.values();
    }

    public java.util.Set<String> ids() {
        return java.util.Collections.unmodifiableSet(vertices.keySet());
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
