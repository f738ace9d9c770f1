package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.AggregateKind;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of an aggregate ({@link Vertex.Role#AGGREGATE}), which runs after every one of its members:
 * failed when any of them failed, saying how many; skipped when what the aggregate requires failed; changed
 * when any of them changed (a nested aggregate counts as one of them, so changes and failures travel up the
 * chain). A member that only would have changed, in a noop the aggregate itself is not in, is no change.
 */
final class AggregateOutcome {
    private final Graph graph;
    private final RunOptions options;

    AggregateOutcome(Graph graph, RunOptions options) {
        this.graph = graph;
        this.options = options;
    }

    /**
     * @param reports the reports so far, which hold every member's: each member comes before the aggregate
     * @param blockedBy why the aggregate is skipped (a resource it requires failed), or null
     */
    ResourceReport of(Vertex aggregate, Map<String, ResourceReport> reports, String blockedBy) {
        List<ResourceReport> members = graph.incoming(aggregate.id()).stream()
                .filter(e -> e.reason() == EdgeReason.CHILD).map(Edge::from).map(reports::get).filter(Objects::nonNull).toList();
        String warning = weakenedNoop(aggregate);
        long failed = members.stream().filter(r -> r.status() == Status.FAILED).count();
        if (failed > 0) {
            return ResourceReport.failed(aggregate.id(), warning, "child manifest had " + failed + " failed resources", 0);
        }
        if (blockedBy != null) return ResourceReport.skipped(aggregate.id(), blockedBy);
        // a member in noop under an aggregate that is not only would have changed: that must not refresh anything
        long changed = members.stream()
                .filter(r -> r.status() == Status.CHANGED && graph.vertex(r.id()).changeIsRealTo(aggregate)).count();
        long wouldChange = members.stream().filter(r -> r.status() == Status.CHANGED).count() - changed;
        String counts = changed > 0 ? changed + " of " + members.size() + " child resources changed"
                : wouldChange > 0 ? wouldChange + " child resources would change (noop)" : null;
        return ResourceReport.checked(aggregate.id(), changed > 0, List.of(), false, warning != null ? warning : counts, 0);
    }

    /** Members cannot leave noop when their parent is in it: says so (and logs it) when they tried. */
    private String weakenedNoop(Vertex aggregate) {
        boolean parentNoop = options.noop() || aggregate.meta().noop();
        if (!parentNoop || !Boolean.FALSE.equals(aggregate.params().raw(AggregateKind.NOOP))) return null;
        String warning = "noop: false ignored: the parent runs in noop, so the child manifest does too";
        RunContext.log(aggregate.kind().name(), aggregate.id(), aggregate.origin().childManifest()).warn(warning);
        return warning;
    }
}
