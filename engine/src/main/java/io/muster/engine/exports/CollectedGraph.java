package io.muster.engine.exports;

import io.muster.engine.compile.AutoEdges;
import io.muster.engine.compile.HostPattern;
import io.muster.engine.graph.Collect;
import io.muster.engine.graph.Edge;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Origin;
import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.AggregateKind;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Kinds;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.PathResource;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.template.Redaction;
import io.muster.engine.template.ScopeTable;
import io.muster.engine.world.World.Exported;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A host's graph with the exports of other hosts its {@code collect} blocks match: each one checked against the
 * block's trust rules, given an id naming its exporter ({@link Collected#id}), and added after the managed
 * directory it lies in. An export that breaks a rule is left out and said why; two resources that manage the same
 * thing (two exporters' files at one path, or an export and a resource of this host's own) are a conflict: neither
 * runs, and the rest of the graph does.
 */
public final class CollectedGraph {
    private static final ScopeTable NO_SCOPE = new ScopeTable("", Map.of(), Map.of(), Map.of());
    /** Relative paths of a collected resource mean nothing here: they are taken from the root. */
    private static final Path ROOT = Path.of("/");

    /** The graph to run, and every export a block matched, applied or rejected, in the order found. */
    public record Result(Graph graph, List<Collected> collected) {}

    /** An export that passed the rules, about to join the graph. */
    private record Candidate(Collected collected, Vertex vertex, Resource resource) {}

    private final Graph base;
    private final String host;
    private final Kinds kinds;
    private final Map<String, Candidate> candidates = new LinkedHashMap<>();
    private final Map<String, Collected> rejected = new LinkedHashMap<>();

    private CollectedGraph(Graph base, String host, Kinds kinds) {
        this.base = base;
        this.host = host;
        this.kinds = kinds;
    }

    /**
     * {@code base} with what its blocks collect from {@code exports} (by kind, of every host; this host's own are
     * never collected).
     */
    public static Result of(Graph base, String host, Map<String, List<Exported>> exports, Kinds kinds) {
        if (base.collects().isEmpty()) return new Result(base, List.of());
        return new CollectedGraph(base, host, kinds).collect(exports);
    }

    private Result collect(Map<String, List<Exported>> exports) {
        for (Collect block : base.collects()) {
            for (Exported e : exports.getOrDefault(block.kind(), List.of())) consider(block, e);
        }
        Set<String> removedLocals = resolveConflicts();
        List<Vertex> vertices = new ArrayList<>();
        for (Vertex v : base.vertices()) if (!removedLocals.contains(v.id())) vertices.add(v);
        for (Candidate c : candidates.values()) vertices.add(c.vertex());
        List<Edge> edges = new ArrayList<>();
        for (Edge e : base.edges()) if (!removedLocals.contains(e.from()) && !removedLocals.contains(e.to())) edges.add(e);
        Graph graph = graph(vertices, edges, removedLocals);
        List<Collected> all = new ArrayList<>(rejected.values());
        for (Candidate c : candidates.values()) all.add(c.collected());
        return new Result(graph, all);
    }

    /** The graph, each collected resource after the managed directory it lies in (none when that makes a cycle). */
    private Graph graph(List<Vertex> vertices, List<Edge> edges, Set<String> removedLocals) {
        Map<String, Resource> instances = new HashMap<>(localInstances(removedLocals));
        candidates.forEach((id, c) -> instances.put(id, c.resource()));
        List<Edge> withAuto = new ArrayList<>(edges);
        for (Edge e : AutoEdges.find(vertices, instances, edges)) {
            if (candidates.containsKey(e.from()) || candidates.containsKey(e.to())) withAuto.add(e);
        }
        Graph graph;
        try {
            graph = new Graph(vertices, withAuto);
        } catch (IllegalArgumentException cycle) {
            graph = new Graph(vertices, edges);
        }
        return graph.compiledFrom(base.manifests(), base.bundle()).collecting(base.collects());
    }

    private void consider(Collect block, Exported e) {
        if (e.host().equals(host) || !matchesAny(block.from(), e.host())) return;
        String id = Collected.id(e.kind(), e.name(), e.host());
        if (candidates.containsKey(id) || rejected.containsKey(id)) return; // an earlier block took it
        ExportedResource resource;
        try {
            resource = ExportedResource.decode(e.content());
        } catch (IllegalArgumentException ex) {
            reject(block, e, id, "unreadable export: " + ex.getMessage());
            return;
        }
        if (!resource.to().isEmpty() && !matchesAny(resource.to(), host)) return; // not meant for this host
        if (!resource.tags().containsAll(block.tags())) return;
        ResourceKind kind = kinds.get(e.kind());
        if (kind == null) {
            reject(block, e, id, "kind '" + e.kind() + "' is unknown here");
            return;
        }
        Map<String, Object> params;
        try {
            params = params(kind, resource, e);
        } catch (IllegalArgumentException ex) {
            reject(block, e, id, ex.getMessage());
            return;
        }
        if (!matchesWhere(block, params)) return;
        String broken = trust(block, kind);
        if (broken != null) {
            reject(block, e, id, broken);
            return;
        }
        Vertex vertex = new Vertex(id, kind, new Params(e.name() + "@" + e.host(), params, ROOT), Map.of(), block.mark(), Map.of(),
                Vertex.Control.NONE, block.meta(), resource.tags(), NO_SCOPE, Origin.root(block.mark().file().getFileName().toString()),
                List.of(), new Redaction(), List.of());
        Resource built;
        try {
            built = kind.create(vertex.params());
            built.validate();
        } catch (InvalidResourceException | RuntimeException ex) {
            reject(block, e, id, "invalid: " + (ex instanceof InvalidResourceException ire && ire.property() != null ? ire.property() + ": " : "")
                    + ex.getMessage());
            return;
        }
        if (built instanceof PathResource p && !under(p.path(), block.allowPaths())) {
            reject(block, e, id, p.path() + " is outside allow.paths " + block.allowPaths());
            return;
        }
        candidates.put(id, new Candidate(new Collected(e.kind(), e.host(), e.name(), id, null), vertex, built));
    }

    /**
     * The export's parameters, each one its kind's and of its type; its name property set (the name it runs under
     * here is not the one it was exported with).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    private static Map<String, Object> params(ResourceKind kind, ExportedResource resource, Exported e) {
        if (!resource.kind().equals(e.kind()) || !resource.name().equals(e.name())) {
            throw new IllegalArgumentException("its content is " + resource.kind() + "#" + resource.name() + ", its key " + e.kind() + "#" + e.name());
        }
        Map<String, Object> params = new LinkedHashMap<>();
        for (Map.Entry<String, Object> p : resource.params().entrySet()) {
            Property property = kind.schema().property(p.getKey());
            if (property == null) throw new IllegalArgumentException("invalid: " + kind.name() + " has no property '" + p.getKey() + "'");
            if (property.bundleFile() && p.getValue() != null) {
                throw new IllegalArgumentException(p.getKey() + " reads a file of the host it runs on: never collected");
            }
            params.put(p.getKey(), property.coerce(p.getValue()));
        }
        String nameProperty = kind.schema().nameProperty();
        if (nameProperty != null) params.putIfAbsent(nameProperty, kind.schema().property(nameProperty).coerce(e.name()));
        return params;
    }

    /** Why {@code kind} may not be collected by {@code block}; null when it may. */
    private static String trust(Collect block, ResourceKind kind) {
        if (kind instanceof AggregateKind) return kind.name() + " includes manifests: never collected";
        if (kind.runsCommands() && !block.allowKinds().contains(kind.name())) {
            return kind.name() + " runs commands: collected only when allow.kinds names it";
        }
        return null;
    }

    private static boolean matchesWhere(Collect block, Map<String, Object> params) {
        for (Map.Entry<String, Object> w : block.where().entrySet()) if (!Objects.equals(params.get(w.getKey()), w.getValue())) return false;
        return true;
    }

    private static boolean under(Path path, List<String> prefixes) {
        Path normal = path.normalize();
        for (String prefix : prefixes) if (normal.startsWith(Path.of(prefix))) return true;
        return false;
    }

    private static boolean matchesAny(List<String> patterns, String host) {
        if (patterns.isEmpty()) return true;
        for (String pattern : patterns) if (HostPattern.parse(pattern).matches(host)) return true;
        return false;
    }

    private void reject(Collect block, Exported e, String id, String why) {
        rejected.put(id, new Collected(e.kind(), e.host(), e.name(), id, why + " (collect at " + block.mark() + ")"));
    }

    /**
     * Rejects every candidate that manages what another candidate or a resource of this host's manages.
     *
     * @return the ids of this host's resources in such a conflict, which do not run either
     */
    private Set<String> resolveConflicts() {
        Map<String, List<String>> managers = new TreeMap<>(); // what is managed -> who manages it, this host's first
        localInstances(Set.of()).forEach((id, r) -> {
            if (r instanceof Edgeable edgeable) for (String uid : edgeable.provides()) managers.computeIfAbsent(uid, u -> new ArrayList<>()).add(id);
        });
        candidates.forEach((id, c) -> {
            if (c.resource() instanceof Edgeable edgeable) {
                for (String uid : edgeable.provides()) managers.computeIfAbsent(uid, u -> new ArrayList<>()).add(id);
            }
        });
        Set<String> locals = new HashSet<>();
        managers.forEach((uid, ids) -> {
            if (ids.size() < 2 || ids.stream().noneMatch(candidates::containsKey)) return;
            for (String id : ids) {
                Candidate c = candidates.remove(id);
                if (c == null) {
                    locals.add(id);
                    continue;
                }
                List<String> others = ids.stream().filter(other -> !other.equals(id)).toList();
                Collected was = c.collected();
                rejected.put(id, new Collected(was.kind(), was.exporter(), was.name(), id,
                        "conflict: " + uid + " is also managed by " + String.join(", ", others) + "; neither is applied (collect at "
                                + c.vertex().mark() + ")"));
            }
        });
        return locals;
    }

    /** This host's resources whose instance is known before they run (no late properties), by id. */
    private Map<String, Resource> localInstances(Set<String> leaving) {
        Map<String, Resource> instances = new HashMap<>();
        for (Vertex v : base.vertices()) {
            if (leaving.contains(v.id()) || !v.late().isEmpty() || v.meta().exported()) continue;
            try {
                instances.put(v.id(), v.kind().create(v.params()));
            } catch (InvalidResourceException | RuntimeException e) {
                // it fails when it runs, saying why; it manages nothing meanwhile
            }
        }
        return instances;
    }
}
