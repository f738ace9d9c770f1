package io.muster.coordinator.status;

import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import java.util.Optional;

/**
 * One host as {@code muster status} and {@code deploy --wait} see it.
 *
 * @param alive whether its agent's lease-bound alive key is there
 * @param status what its agent last reported; empty before its first report
 * @param pointer which graph the coordinator published for it; empty before its first compile
 */
public record HostView(String host, boolean alive, Optional<HostStatus> status, Optional<GraphPointer> pointer) {

    /**
     * Why the host runs no graph or an older one: the coordinator's compile error for it, else what its agent
     * reported; null when nothing is wrong.
     */
    public String error() {
        if (pointer.isPresent() && !pointer.get().getError().isEmpty()) return pointer.get().getError();
        if (status.isPresent() && !status.get().getError().isEmpty()) return status.get().getError();
        return null;
    }

    /** Whether its compile for {@code deploy} failed: it keeps running its previous graph. */
    public boolean compileFailed(long deploy) {
        return pointer.isPresent() && pointer.get().getDeploy() == deploy && !pointer.get().getError().isEmpty();
    }

    /** Whether it reports {@code deploy} applied and converged, with no failed resource. */
    public boolean convergedOn(long deploy) {
        return status.isPresent() && status.get().getDeploy() == deploy && status.get().getConverged()
                && status.get().getFailedCount() == 0 && !compileFailed(deploy);
    }

    /**
     * Whether it reports {@code deploy} applied and converged with failed resources. Not before it converged: just
     * after a graph swap, a resource the swap kept (an {@code apply} whose child failed) still carries its failure
     * from the previous graph until it runs again.
     */
    public boolean failedOn(long deploy) {
        return compileFailed(deploy) || status.isPresent() && status.get().getDeploy() == deploy && status.get().getConverged()
                && status.get().getFailedCount() > 0;
    }
}
