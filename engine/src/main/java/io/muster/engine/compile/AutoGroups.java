package io.muster.engine.compile;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.Groupable;
import io.muster.engine.resource.Resource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Autogroup: merges {@link Groupable} resources into groups, each converged by one resource in the place
 * of its first member, which inherits the others' edges. Greedy in declaration order: a resource joins the
 * first group of its kind that accepts it and that it has no path to or from (in the graph as merged so
 * far, so merging never makes a cycle), else it starts a group of its own.
 */
final class AutoGroups {
    private final Map<String, Resource> instances;
    private final Set<String> valuePassing = new HashSet<>();
    /** Edges leaving each group (or lone vertex), by their original target ids. */
    private final Map<String, Set<String>> outgoing = new HashMap<>();
    /** Which group each merged vertex went into. */
    private final Map<String, String> leaderOf = new HashMap<>();
    private final Map<String, List<Vertex>> members = new LinkedHashMap<>();

    private AutoGroups(List<Vertex> vertices, Map<String, Resource> instances, List<Edge> edges) {
        this.instances = instances;
        for (Vertex v : vertices) outgoing.put(v.id(), new LinkedHashSet<>());
        for (Edge e : edges) {
            outgoing.get(e.from()).add(e.to());
            if (e.reason() == EdgeReason.LOOKUP) {
                valuePassing.add(e.from());
                valuePassing.add(e.to());
            }
        }
    }

    /** The graph with every group merged; the same graph when nothing groups. */
    static Graph merge(List<Vertex> vertices, Map<String, Resource> instances, List<Edge> edges) {
        if (instances.values().stream().noneMatch(r -> r instanceof Groupable)) return new Graph(vertices, edges); // the usual case
        AutoGroups groups = new AutoGroups(vertices, instances, edges);
        Map<String, Vertex> byId = new LinkedHashMap<>();
        for (Vertex v : vertices) byId.put(v.id(), v);
        Map<String, List<Vertex>> leadersByKind = new HashMap<>();
        for (Vertex v : vertices) {
            if (!groups.candidate(v)) continue;
            List<Vertex> leaders = leadersByKind.computeIfAbsent(v.kind().name(), k -> new ArrayList<>());
            Vertex leader = leaders.stream().filter(l -> groups.accepts(l, v)).findFirst().orElse(null);
            if (leader == null) leaders.add(v);
            else groups.join(leader.id(), v);
        }
        return groups.members.isEmpty() ? new Graph(vertices, edges) : groups.merged(vertices, edges);
    }

    /** Whether {@code v} can be in a group at all: the engine runs a group as one resource. */
    private boolean candidate(Vertex v) {
        return v.meta().autogroup() && instances.get(v.id()) instanceof Groupable && v.late().isEmpty()
                && v.control().equals(Vertex.Control.NONE) && !valuePassing.contains(v.id());
    }

    private boolean accepts(Vertex leader, Vertex v) {
        return leader.meta().equals(v.meta()) && leader.origin().equals(v.origin())
                && ((Groupable) instances.get(leader.id())).groupsWith((Groupable) instances.get(v.id()))
                && !reaches(leader.id(), v.id()) && !reaches(v.id(), leader.id());
    }

    private void join(String leader, Vertex v) {
        leaderOf.put(v.id(), leader);
        outgoing.get(leader).addAll(outgoing.remove(v.id()));
        members.computeIfAbsent(leader, k -> new ArrayList<>()).add(v);
    }

    private String groupOf(String id) {
        return leaderOf.getOrDefault(id, id);
    }

    /** Whether a path leads from {@code from}'s group to {@code to}'s. */
    private boolean reaches(String from, String to) {
        String target = groupOf(to);
        Set<String> seen = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>(List.of(groupOf(from)));
        while (!pending.isEmpty()) {
            for (String next : outgoing.get(pending.pop())) {
                String group = groupOf(next);
                if (group.equals(target)) return true;
                if (seen.add(group)) pending.push(group);
            }
        }
        return false;
    }

    private Graph merged(List<Vertex> vertices, List<Edge> edges) {
        List<Vertex> kept = new ArrayList<>();
        for (Vertex v : vertices) {
            if (leaderOf.containsKey(v.id())) continue;
            List<Vertex> grouped = members.get(v.id());
            kept.add(grouped == null ? v : v.grouping(grouped));
        }
        Set<Edge> redirected = new LinkedHashSet<>();
        for (Edge e : edges) redirected.add(new Edge(groupOf(e.from()), groupOf(e.to()), e.reason()));
        return new Graph(kept, List.copyOf(redirected));
    }
}
