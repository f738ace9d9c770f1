package io.muster.engine.compile;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The edges that make an aggregate stand for its members: every member comes before the aggregate (which
 * then reports their outcome), and after whatever the aggregate comes after, with the same relation, so
 * {@code require} holds and a {@code subscribe} refreshes the members too.
 */
final class MemberEdges {
    private MemberEdges() {}

    /**
     * @param declarations in declaration order, so an aggregate is handled before the aggregates among its
     *     members, which then pass on what it passed to them
     * @param membersOf the direct members of each aggregate, by its id
     * @param byId the declarations that made it into the graph (a duplicate id did not)
     */
    static void add(List<Declaration> declarations, Map<String, List<Declaration>> membersOf,
                    Map<String, Declaration> byId, List<Edge> edges) {
        for (Declaration aggregate : declarations) {
            List<Declaration> members = membersOf.get(aggregate.id());
            if (members == null || byId.get(aggregate.id()) != aggregate) continue;
            List<Edge> incoming = edges.stream().filter(e -> e.to().equals(aggregate.id()) && e.reason() != EdgeReason.CHILD).toList();
            List<Edge> added = new ArrayList<>();
            for (Declaration member : members) {
                if (byId.get(member.id()) != member) continue;
                for (Edge e : incoming) {
                    if (!e.from().equals(member.id())) added.add(new Edge(e.from(), member.id(), e.reason()));
                }
                added.add(new Edge(member.id(), aggregate.id(), EdgeReason.CHILD));
            }
            edges.addAll(added);
        }
    }
}
