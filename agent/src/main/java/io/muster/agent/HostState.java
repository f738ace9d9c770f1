package io.muster.agent;

import io.muster.engine.exports.Collected;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.run.ResourceStats;
import io.muster.proto.fleet.Failure;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Summary;
import java.nio.file.Path;
import java.util.List;

/** A live run's state as the fleet sees it ({@code fleet.HostStatus}): counts by status as in apply reports, and each failure. */
final class HostState {
    private HostState() {}

    /**
     * @param deploy the deploy of the graph running (0: none yet)
     * @param graph its sha256 (empty: none)
     * @param error why the host runs no graph or an older one; null for none
     * @param collected the exports of other hosts its collect blocks matched, applied or rejected
     * @param bundle where this agent lays out the bundle: a place in it is shown as the coordinator shows it,
     *     relative to the bundle ({@code roles/lb.yaml:3:5}), the same on every host
     */
    static HostStatus of(long deploy, String graph, boolean converged, List<ResourceStats> resources, String error,
                         List<Collected> collected, Path bundle) {
        String local = bundle.toString() + "/";
        Summary.Builder summary = Summary.newBuilder().setTotal(resources.size());
        HostStatus.Builder status = HostStatus.newBuilder().setDeploy(deploy).setGraph(graph).setConverged(converged);
        for (ResourceStats r : resources) {
            ResourceReport last = r.last();
            summary.setChecks(summary.getChecks() + r.checks()).setApplies(summary.getApplies() + r.applies())
                    .setFailures(summary.getFailures() + r.failures());
            if (last == null) {
                summary.setPending(summary.getPending() + 1);
                continue;
            }
            switch (last.status()) {
                case CHANGED -> summary.setChanged(summary.getChanged() + 1);
                case STABLE -> summary.setStable(summary.getStable() + 1);
                case FAILED -> summary.setFailed(summary.getFailed() + 1);
                case SKIPPED -> summary.setSkipped(summary.getSkipped() + 1);
                case UNRESOLVABLE -> summary.setUnresolvable(summary.getUnresolvable() + 1);
            }
            if (last.status() == Status.FAILED) {
                String why = last.error() != null ? last.error() : last.message();
                status.addFailed(Failure.newBuilder().setId(r.id()).setError(why == null ? "failed" : why.replace(local, "")));
            }
        }
        for (Collected c : collected) {
            status.addCollected(io.muster.proto.fleet.Collected.newBuilder().setKind(c.kind()).setExporter(c.exporter())
                    .setName(c.name()).setId(c.id()).setRejected(c.applied() ? "" : c.rejected().replace(local, "")));
        }
        if (error != null) status.setError(error.replace(local, ""));
        return status.setSummary(summary).build();
    }
}
