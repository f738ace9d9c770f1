package io.muster.cli;

import io.muster.coordinator.status.RolloutText;
import io.muster.coordinator.status.RolloutView;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code deploy --wait}'s waves on stderr: on a terminal a progress bar for the wave under way, rewritten as its
 * hosts converge; otherwise a line as each wave starts. Either way a line as each wave ends or halts.
 */
final class WaveProgress {
    private static final int BAR = 30;

    private final PrintWriter err;
    private final boolean terminal;
    private final Map<Integer, String> shown = new HashMap<>(); // wave number → the state last shown
    private boolean barOpen;

    WaveProgress(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    void show(RolloutView rollout) {
        int waves = rollout.waves().size();
        for (RolloutView.WaveView wave : rollout.waves()) {
            String last = shown.put(wave.number(), wave.state());
            if (wave.state().equals("waiting") || wave.state().equals(last) && !wave.state().equals("running")) continue;
            if (!terminal && (last == null || last.equals("waiting"))) { // also for a wave that went by between two looks
                err.println("wave " + wave.number() + " of " + waves + (wave.canary() ? " (canary)" : "") + " started: " + hosts(wave.hosts().size()));
            }
            if (wave.state().equals("running")) {
                if (terminal) {
                    err.print("\r" + bar(wave, waves));
                    barOpen = true;
                }
            } else {
                finish();
                err.println(RolloutText.line(wave).replaceFirst("^wave " + wave.number(), "wave " + wave.number() + " of " + waves));
            }
        }
        err.flush();
    }

    /** Ends the bar's line, if one is open. */
    void finish() {
        if (barOpen) err.println();
        barOpen = false;
    }

    private static String bar(RolloutView.WaveView wave, int waves) {
        int total = wave.hosts().size();
        int done = wave.converged().size();
        int filled = total == 0 ? BAR : done * BAR / total;
        return "wave " + wave.number() + "/" + waves + (wave.canary() ? " (canary)" : "") + " [" + "#".repeat(filled) + "-".repeat(BAR - filled) + "] "
                + done + "/" + total + " converged" + (wave.failed().isEmpty() ? "" : ", " + wave.failed().size() + " failed");
    }

    private static String hosts(int n) {
        return n + (n == 1 ? " host" : " hosts");
    }
}
