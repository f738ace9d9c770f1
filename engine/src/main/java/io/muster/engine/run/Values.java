package io.muster.engine.run;

import io.muster.engine.compile.ResourceReference;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.template.IncompleteValue;
import io.muster.engine.template.Lookup;
import io.muster.engine.template.MissingValueException;
import io.muster.engine.template.TemplateException;
import io.muster.engine.template.UnknownNameException;
import io.muster.engine.template.UnresolvableException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The values resources produced in this run, for {@code lookup} at run time. In a one-shot run a value,
 * once read, stays the same for the rest of the run (memoized by construction: each producer runs once);
 * in a live run each run of the producer replaces its values, and consumers re-run when they change.
 */
final class Values implements Lookup {
    private final Graph graph;
    private final Map<String, Map<String, Object>> produced;
    private final Set<String> noop;

    Values(Graph graph) {
        this(graph, new ConcurrentHashMap<>(), ConcurrentHashMap.newKeySet());
    }

    private Values(Graph graph, Map<String, Map<String, Object>> produced, Set<String> noop) {
        this.graph = graph;
        this.produced = produced;
        this.noop = noop;
    }

    /** The same values, read through a new graph after a swap (its ids, its declared parameters). */
    Values withGraph(Graph next) {
        return new Values(next, produced, noop);
    }

    /** Whether a resource reads {@code id}'s values at run time (each such read is a {@code lookup} edge). */
    boolean read(String id) {
        return graph.outgoing(id).stream().anyMatch(e -> e.reason() == EdgeReason.LOOKUP);
    }

    /** What {@code id} produced last, empty when nothing. */
    Map<String, Object> outputs(String id) {
        return produced.getOrDefault(id, Map.of());
    }

    void record(String id, Map<String, Object> outputs, boolean inNoop) {
        produced.put(id, outputs);
        if (inNoop) noop.add(id);
        else noop.remove(id);
    }

    @Override
    public Object resourceValue(String reference) {
        ResourceReference ref = ResourceReference.parse(reference, graph.ids());
        if (ref == null) throw new UnknownNameException("lookup('" + reference + "'): no such resource");
        Object value = produced.getOrDefault(ref.id(), Map.of()).get(ref.field());
        if (value instanceof IncompleteValue incomplete) throw new TemplateException("lookup('" + reference + "'): " + incomplete.why());
        if (value != null) return value;
        Vertex producer = graph.vertex(ref.id());
        Object declared = producer.params().raw(ref.field());
        if (declared != null) return declared;
        if (noop.contains(ref.id())) {
            throw new UnresolvableException("needs " + reference + ", which only an apply of " + ref.id() + " produces");
        }
        throw new MissingValueException("lookup('" + reference + "'): " + ref.id() + " produced no " + ref.field()
                + " this run (it did not run); give lookup a fallback as second argument");
    }

    /** Whether {@code reference} ({@code kind#name.field}) reads a sensitive resource's value. */
    boolean sensitiveReference(String reference) {
        ResourceReference ref = ResourceReference.parse(reference, graph.ids());
        return ref != null && sensitive(ref.id());
    }

    /** Marked sensitive (a late {@code sensitive} may turn out true), or reads such a resource's values at run time. */
    @Override
    public boolean sensitive(String id) {
        return sensitive(id, new HashSet<>());
    }

    private boolean sensitive(String id, Set<String> visited) {
        if (!visited.add(id)) return false;
        Vertex v = graph.vertex(id);
        if (v == null) return false;
        if (Boolean.TRUE.equals(v.params().raw("sensitive")) || v.late().containsKey("sensitive")) return true;
        return graph.incoming(id).stream().anyMatch(e -> e.reason() == EdgeReason.LOOKUP && sensitive(e.from(), visited));
    }
}
