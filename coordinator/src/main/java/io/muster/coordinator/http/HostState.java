package io.muster.coordinator.http;

import io.muster.coordinator.status.HostView;
import io.muster.proto.fleet.HostStatus;
import java.util.Locale;

/**
 * A host at a glance, as the page colours it and {@code /api/v1/hosts?state=} filters. Checked in this order:
 * lost (its agent's alive key is gone), failed (it reports a failed resource, or an error: its compile for the
 * current deploy failed, or its agent could not run the graph), converged (converged on the current deploy),
 * and drifting for the rest: applying a deploy, repairing drift, or not reported yet.
 */
enum HostState {
    CONVERGED, DRIFTING, FAILED, LOST;

    static HostState of(HostView host, long currentDeploy) {
        if (!host.alive()) return LOST;
        HostStatus status = host.status().orElse(null);
        if (host.error() != null || status != null && status.getFailedCount() > 0) return FAILED;
        if (status != null && status.getConverged() && (currentDeploy == 0 || status.getDeploy() == currentDeploy)) return CONVERGED;
        return DRIFTING;
    }

    /** As the API writes it: {@code converged}, {@code drifting}, {@code failed}, {@code lost}. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state a label names; null for none. */
    static HostState parse(String label) {
        for (HostState s : values()) if (s.label().equals(label)) return s;
        return null;
    }
}
