package io.muster.engine.compile;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The edges that make an {@code apply} resource stand for its child manifest: every child resource comes
 * before the apply (which then reports their outcome), and after whatever the apply comes after, with the
 * same relation, so {@code require} holds and a {@code subscribe} refreshes the child's resources too.
 */
final class ApplyEdges {
    private ApplyEdges() {}

    /**
     * @param declarations in declaration order, so an apply is handled before the applies of its child, which
     *     then pass on what it passed to them
     * @param byId the declarations that made it into the graph (a duplicate id did not)
     */
    static void add(List<Declaration> declarations, Map<Declaration, List<Declaration>> children,
                    Map<String, Declaration> byId, List<Edge> edges) {
        for (Declaration apply : declarations) {
            List<Declaration> members = children.get(apply);
            if (members == null || byId.get(apply.id()) != apply) continue;
            List<Edge> incoming = edges.stream().filter(e -> e.to().equals(apply.id()) && e.reason() != EdgeReason.CHILD).toList();
            List<Edge> added = new ArrayList<>();
            for (Declaration child : members) {
                if (byId.get(child.id()) != child) continue;
                for (Edge e : incoming) {
                    if (!e.from().equals(child.id())) added.add(new Edge(e.from(), child.id(), e.reason()));
                }
                added.add(new Edge(child.id(), apply.id(), EdgeReason.CHILD));
            }
            edges.addAll(added);
        }
    }
}
