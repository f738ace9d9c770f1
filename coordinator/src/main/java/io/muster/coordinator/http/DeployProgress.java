package io.muster.coordinator.http;

import io.muster.coordinator.status.HostView;
import java.util.Locale;

/**
 * Where a host is with one deploy ({@code /api/v1/deploys/ID}, the page's progress bar), checked in this order:
 * converged on it with nothing failed, failed on it (its compile, or resources still failed once it converged),
 * lost (its agent is gone), applying (the coordinator pointed it at the deploy, or it runs it and has not
 * converged yet), pending (not pointed at it yet).
 */
enum DeployProgress {
    CONVERGED, FAILED, LOST, APPLYING, PENDING;

    static DeployProgress of(HostView host, long deploy) {
        if (host.convergedOn(deploy)) return CONVERGED;
        if (host.failedOn(deploy)) return FAILED;
        if (!host.alive()) return LOST;
        boolean pointed = host.pointer().map(p -> p.getDeploy() == deploy).orElse(false);
        boolean running = host.status().map(s -> s.getDeploy() == deploy).orElse(false);
        return pointed || running ? APPLYING : PENDING;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
