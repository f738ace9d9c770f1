package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Reversible;
import io.muster.engine.template.Scope;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * {@code meta.reverse} in a live run: undoes the resources that leave the graph, each as its state dir
 * remembers it, dependents first, and keeps what it did for the final report.
 */
final class Reversals {
    private final RunOptions options;
    private final Consumer<ResourceReport> progress;
    private final List<ResourceReport> done = new CopyOnWriteArrayList<>();

    Reversals(RunOptions options, Consumer<ResourceReport> progress) {
        this.options = options;
        this.progress = progress;
    }

    /**
     * Undoes every resource declared in {@code leaving} (vertices of {@code old}, groups included) that
     * {@code next} no longer declares and that asked for it.
     */
    void undo(Graph old, List<Vertex> leaving, Graph next, VertexRun vertexRun) {
        Set<String> staying = new HashSet<>();
        for (Vertex v : next.vertices()) for (Vertex declared : v.declared()) staying.add(declared.id());
        for (Vertex gone : dependentsFirst(old, leaving)) {
            for (Vertex v : gone.declared()) {
                // an exported resource was never applied here: its collectors undo it
                if (!staying.contains(v.id()) && v.meta().reverse() && !v.meta().exported()) undo(v, vertexRun);
            }
        }
    }

    /** What was undone so far, in order. */
    List<ResourceReport> reports() {
        return List.copyOf(done);
    }

    private void undo(Vertex v, VertexRun vertexRun) {
        if (options.noop() || v.meta().noop()) return;
        long start = vertexRun.now();
        ResourceReport report;
        Scope scope = vertexRun.scope(v);
        try {
            Resource resource = VertexRun.build(v, scope);
            if (!(resource instanceof Reversible reversible)) return;
            Result result = reversible.reverse(vertexRun.context(v, false, false));
            report = ResourceReport.reversed(v.id(), result.isChanged(), result.changes(), vertexRun.millis(start));
        } catch (Throwable e) { // an Error too: it fails this undo, the others still run
            String error = "reverse failed: " + VertexRun.describe(e, v.id(), "reverse", scope.lookup()::redact);
            report = ResourceReport.failed(v.id(), null, error, vertexRun.millis(start));
        }
        done.add(report);
        progress.accept(report);
    }

    /**
     * {@code leaving} in the order to undo it: each resource after every one that depended on it in {@code g}
     * (a created directory is removed after the files in it, which it could not be before).
     */
    private static List<Vertex> dependentsFirst(Graph g, List<Vertex> leaving) {
        Map<String, Vertex> byId = new LinkedHashMap<>();
        for (Vertex v : leaving) byId.put(v.id(), v);
        List<Vertex> order = new ArrayList<>(leaving.size());
        Set<String> seen = new HashSet<>();
        for (Vertex v : leaving) visitDependentsFirst(g, v.id(), byId, seen, order);
        return order;
    }

    private static void visitDependentsFirst(Graph g, String id, Map<String, Vertex> leaving, Set<String> seen, List<Vertex> order) {
        if (!seen.add(id)) return;
        for (Edge e : g.outgoing(id)) visitDependentsFirst(g, e.to(), leaving, seen, order);
        Vertex v = leaving.get(id);
        if (v != null) order.add(v);
    }
}
