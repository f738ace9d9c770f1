package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.apply.ApplyKind;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of an {@code apply} resource, which runs after every resource of its child manifest: failed
 * when any of them failed, saying how many; skipped when what the apply requires failed; changed when any
 * of them changed (a nested apply counts as one of them, so changes and failures travel up the chain). A
 * child that only would have changed, in a noop the apply itself is not in, is no change.
 */
final class ApplyOutcome {
    private final Graph graph;
    private final RunOptions options;

    ApplyOutcome(Graph graph, RunOptions options) {
        this.graph = graph;
        this.options = options;
    }

    static boolean isApply(Vertex v) {
        return v.kind().name().equals(ApplyKind.NAME);
    }

    /**
     * @param reports the reports so far, which hold every child's: each child comes before the apply
     * @param blockedBy why the apply is skipped (a resource it requires failed), or null
     */
    ResourceReport of(Vertex apply, Map<String, ResourceReport> reports, String blockedBy) {
        List<ResourceReport> children = graph.incoming(apply.id()).stream()
                .filter(e -> e.reason() == EdgeReason.CHILD).map(Edge::from).map(reports::get).filter(Objects::nonNull).toList();
        String warning = weakenedNoop(apply);
        long failed = children.stream().filter(r -> r.status() == Status.FAILED).count();
        if (failed > 0) {
            return ResourceReport.failed(apply.id(), warning, "child manifest had " + failed + " failed resources", 0);
        }
        if (blockedBy != null) return ResourceReport.skipped(apply.id(), blockedBy);
        // a child in noop under an apply that is not only would have changed: that must not refresh anything
        long changed = children.stream()
                .filter(r -> r.status() == Status.CHANGED && graph.vertex(r.id()).changeIsRealTo(apply)).count();
        long wouldChange = children.stream().filter(r -> r.status() == Status.CHANGED).count() - changed;
        String counts = changed > 0 ? changed + " of " + children.size() + " child resources changed"
                : wouldChange > 0 ? wouldChange + " child resources would change (noop)" : null;
        return ResourceReport.checked(apply.id(), changed > 0, List.of(), false, warning != null ? warning : counts, 0);
    }

    /** A child cannot leave noop when its parent is in it: says so (and logs it) when one tried. */
    private String weakenedNoop(Vertex apply) {
        boolean parentNoop = options.noop() || apply.meta().noop();
        if (!parentNoop || !Boolean.FALSE.equals(apply.params().raw("noop"))) return null;
        String warning = "noop: false ignored: the parent runs in noop, so the child manifest does too";
        new RunContext(options, apply, false, false).log().warn(warning);
        return warning;
    }
}
