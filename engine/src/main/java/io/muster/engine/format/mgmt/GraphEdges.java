package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code edges:} of an mgmt graph: {@code from} runs before {@code to}; with {@code notify: true} a change of
 * {@code from} also refreshes {@code to} when its mgmt kind takes a refresh (a {@code svc} restarts); any other
 * ({@code file}, {@code exec}: mgmt's exec has no refresh) just runs after it, as in mgmt. Kinds compare without
 * case; a resource that is not in the graph is an error at the edge.
 */
final class GraphEdges {
    /** The muster kinds of the mgmt kinds that take a refresh ({@code svc}, {@code kv}, {@code timer}, {@code msg}, {@code print}, {@code noop}). */
    private static final Set<String> REFRESHABLE = Set.of("service", "kv", "timer", "msg", "noop");

    private final GraphResources resources;
    private final Problems problems;

    GraphEdges(GraphResources resources, Problems problems) {
        this.resources = resources;
        this.problems = problems;
    }

    void read(YNode edges) {
        if (edges == null || edges.plain() == null) return;
        if (!(edges instanceof YNode.Seq list)) {
            problems.add(edges.mark(), "edges: expected a list of edges, got " + edges.describe());
            return;
        }
        for (YNode edge : list.items()) {
            if (!(edge instanceof YNode.Dict fields)) {
                problems.add(edge.mark(), "edges: expected an edge (from, to, notify), got " + edge.describe());
                continue;
            }
            Optional<GraphResources.Translated> from = end(fields, "from");
            Optional<GraphResources.Translated> to = end(fields, "to");
            YNode notifyNode = fields.get("notify");
            Optional<Boolean> notifyValue = notifyNode == null || notifyNode.plain() == null ? Optional.of(false)
                    : notifyNode instanceof YNode.Scalar s ? Node.bool(s.value()) : Optional.empty();
            if (notifyValue.isEmpty()) problems.add(notifyNode.mark(), "edges: notify: expected true or false, got " + notifyNode.describe());
            boolean notify = notifyValue.orElse(false);
            if (from.isPresent() && to.isPresent()) from.get().relate(notify && REFRESHABLE.contains(to.get().nativeKind()) ? "notify" : "before", to.get().id(), edge.mark());
        }
    }

    /** The resource an edge's {@code from} or {@code to} names ({@code kind} and {@code name}). */
    private Optional<GraphResources.Translated> end(YNode.Dict edge, String which) {
        YNode end = edge.get(which);
        if (!(end instanceof YNode.Dict ends) || !(ends.get("kind") instanceof YNode.Scalar kind) || kind.value() == null
                || !(ends.get("name") instanceof YNode.Scalar name) || name.value() == null) {
            problems.add(end == null ? edge.mark() : end.mark(), "edges: " + which + ": expected a resource's kind and name ({kind: file, name: f1})");
            return Optional.empty();
        }
        Optional<GraphResources.Translated> found = resources.find(kind.value().toString(), name.value().toString());
        if (found.isEmpty()) {
            problems.add(end.mark(), "edges: " + which + ": no resource of kind '" + kind.value() + "' named '" + name.value() + "' in this graph");
        }
        return found;
    }
}
