package io.muster.coordinator.status;

import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import io.muster.proto.fleet.Wave;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A rollout as {@code muster status}, {@code deploy --wait} and the HTTP API show it: its state, and each wave
 * with how its hosts stand on the deploy (converged; failed, or their agent gone; not settled yet): as the wave
 * was judged when it ended or halted, and as their keys say now while it is under way.
 *
 * @param state running, stalled, done, superseded or rolled_back
 * @param reason why it halted (or was superseded, rolled back); null when none
 * @param wave the number (from 1) of the wave under way, or halted
 */
public record RolloutView(long deploy, long previous, String state, String reason, int wave, List<WaveView> waves) {

    /**
     * One wave.
     *
     * @param state waiting (not started), running, done, halted (where a stalled rollout stopped), or stopped (a
     *        rollout superseded or rolled back meanwhile)
     * @param pending its hosts neither converged nor failed; every host of a wave not started
     * @param started null when not started
     */
    public record WaveView(int number, boolean canary, String state, List<String> hosts, List<String> converged, List<String> failed,
                           List<String> pending, int maxFailures, Instant started, Instant ended) {}

    /** @param hosts each host as its keys say now (empty: it has none) */
    public static RolloutView of(Rollout rollout, Function<String, Optional<HostView>> hosts) {
        List<WaveView> waves = new ArrayList<>();
        for (int i = 0; i < rollout.getWavesCount(); i++) waves.add(wave(rollout, i, hosts));
        return new RolloutView(rollout.getDeploy(), rollout.getPrevious(), state(rollout.getState()),
                rollout.getReason().isEmpty() ? null : rollout.getReason(), rollout.getWave() + 1, waves);
    }

    /** Whether hosts not reached yet keep the previous deploy: the rollout runs or is stalled. */
    public boolean active() {
        return state.equals("running") || state.equals("stalled");
    }

    public static String state(RolloutState state) {
        return state == RolloutState.UNRECOGNIZED ? "unknown" : state.name().toLowerCase(Locale.ROOT);
    }

    private static WaveView wave(Rollout rollout, int index, Function<String, Optional<HostView>> hosts) {
        Wave wave = rollout.getWaves(index);
        List<String> converged = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> pending = new ArrayList<>();
        boolean halted = rollout.getState() == RolloutState.STALLED && index == rollout.getWave();
        for (String host : wave.getHostsList()) {
            if (wave.getStarted() == 0) {
                pending.add(host);
            } else if (wave.getEnded() != 0 || halted) { // as it was judged, which its hosts' keys may no longer say
                (wave.getFailedList().contains(host) ? failed : wave.getPendingList().contains(host) ? pending : converged).add(host);
            } else {
                Optional<HostView> view = hosts.apply(host);
                if (view.isPresent() && view.get().convergedOn(rollout.getDeploy())) converged.add(host);
                else if (view.isEmpty() || !view.get().alive() || view.get().failedOn(rollout.getDeploy())) failed.add(host);
                else pending.add(host);
            }
        }
        String state;
        if (wave.getStarted() == 0) state = "waiting";
        else if (wave.getEnded() != 0) state = "done";
        else if (rollout.getState() == RolloutState.RUNNING) state = "running";
        else if (rollout.getState() == RolloutState.STALLED) state = "halted";
        else state = "stopped";
        return new WaveView(index + 1, wave.getCanary(), state, wave.getHostsList(), converged, failed, pending, wave.getMaxFailures(),
                time(wave.getStarted()), time(wave.getEnded()));
    }

    private static Instant time(long millis) {
        return millis == 0 ? null : Instant.ofEpochMilli(millis);
    }
}
