package io.muster.engine.graph;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Resources and the edges between them, in the order they were declared. Acyclic by construction. */
public final class Graph {
    private final Map<String, Vertex> vertices;
    private final List<Edge> edges;
    private final Map<String, List<Edge>> incoming = new LinkedHashMap<>();
    private final Map<String, List<Edge>> outgoing = new LinkedHashMap<>();

    public Graph(Collection<Vertex> vertices, List<Edge> edges) {
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
