package io.muster.coordinator.rollout;

import io.muster.coordinator.status.HostTable;
import io.muster.coordinator.status.HostView;
import io.muster.coordinator.status.RolloutText;
import io.muster.coordinator.status.RolloutView;
import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import io.muster.proto.fleet.Wave;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a running rollout goes next, from its hosts' keys: the wave under way halts the rollout as soon as more
 * of its hosts failed (or lost their agent) than it allows (any canary), or when its timeout passes with hosts
 * not settled; once every host of it settled, it ends and the next wave starts, with the live hosts no wave
 * holds (registered since the deploy) added to it; after the last, the rollout is done.
 */
final class RolloutStep {
    private RolloutStep() {}

    /** The rollout as it should be now; empty when nothing changes. */
    static Optional<Rollout> next(Rollout rollout, HostTable hosts, long now) {
        if (rollout.getState() != RolloutState.RUNNING) return Optional.empty();
        int index = rollout.getWave();
        RolloutView.WaveView wave = RolloutView.of(rollout, hosts::host).waves().get(index);
        Wave stored = rollout.getWaves(index);
        int allowed = stored.getCanary() ? 0 : stored.getMaxFailures();
        String name = "wave " + wave.number() + " of " + rollout.getWavesCount() + (stored.getCanary() ? " (canary)" : "");
        if (wave.failed().size() > allowed) {
            return Optional.of(halt(rollout, wave, now, name + ": " + wave.failed().size() + " of " + wave.hosts().size()
                    + " hosts failed (at most " + allowed + " allowed): " + RolloutText.names(wave.failed())));
        }
        if (wave.pending().isEmpty()) {
            Rollout.Builder next = rollout.toBuilder().setUpdated(now)
                    .setWaves(index, stored.toBuilder().setEnded(now).clearFailed().addAllFailed(wave.failed()).clearPending());
            if (index + 1 == rollout.getWavesCount()) return Optional.of(next.setState(RolloutState.DONE).build());
            Wave following = rollout.getWaves(index + 1).toBuilder().addAllHosts(joiners(rollout, hosts)).setStarted(now).build();
            return Optional.of(next.setWave(index + 1).setWaves(index + 1, following).build());
        }
        long timeout = rollout.getWaveTimeout();
        if (timeout > 0 && now >= stored.getStarted() + timeout) {
            return Optional.of(halt(rollout, wave, now, name + ": " + wave.pending().size() + " of " + wave.hosts().size()
                    + " hosts did not settle within " + java.math.BigDecimal.valueOf(timeout, 3).stripTrailingZeros().toPlainString() + " s: " + RolloutText.names(wave.pending())));
        }
        return Optional.empty();
    }

    /** When the wave under way times out, in epoch milliseconds; {@link Long#MAX_VALUE} when it cannot. */
    static long deadline(Rollout rollout) {
        if (rollout.getState() != RolloutState.RUNNING || rollout.getWaveTimeout() == 0) return Long.MAX_VALUE;
        return rollout.getWaves(rollout.getWave()).getStarted() + rollout.getWaveTimeout();
    }

    private static Rollout halt(Rollout rollout, RolloutView.WaveView wave, long now, String reason) {
        Wave halted = rollout.getWaves(rollout.getWave()).toBuilder().clearFailed().addAllFailed(wave.failed())
                .clearPending().addAllPending(wave.pending()).build();
        return rollout.toBuilder().setState(RolloutState.STALLED).setReason(reason).setUpdated(now).setWaves(rollout.getWave(), halted).build();
    }

    /** Live hosts in no wave, by name. */
    private static List<String> joiners(Rollout rollout, HostTable hosts) {
        Set<String> planned = new HashSet<>();
        rollout.getWavesList().forEach(w -> planned.addAll(w.getHostsList()));
        return hosts.live().stream().map(HostView::host).filter(h -> !planned.contains(h)).toList();
    }
}
