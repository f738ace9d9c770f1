package io.muster.coordinator.status;

import java.util.List;

/**
 * A rollout in {@code muster status}: a line saying where it stands, then a line per wave (waves not started
 * yet on one line), naming the hosts that failed or have not settled (the first {@value #NAMES} of each).
 */
public final class RolloutText {
    static final int NAMES = 10;

    private RolloutText() {}

    public static String render(RolloutView rollout) {
        StringBuilder out = new StringBuilder("rollout of deploy ").append(rollout.deploy()).append(": ").append(rollout.state().replace('_', ' '));
        if (rollout.active()) {
            out.append(rollout.state().equals("stalled") ? " at" : ",").append(" wave ").append(rollout.wave()).append(" of ").append(rollout.waves().size())
                    .append(" (hosts not reached keep ").append(rollout.previous() == 0 ? "no graph" : "deploy " + rollout.previous()).append(')');
        }
        out.append('\n');
        if (rollout.reason() != null) out.append("  ").append(rollout.reason()).append('\n');
        List<RolloutView.WaveView> waves = rollout.waves();
        for (int i = 0; i < waves.size(); i++) {
            RolloutView.WaveView wave = waves.get(i);
            if (wave.state().equals("waiting")) {
                int hosts = waves.subList(i, waves.size()).stream().mapToInt(w -> w.hosts().size()).sum();
                out.append("  ").append(i == waves.size() - 1 ? "wave " + wave.number() : "waves " + wave.number() + "-" + waves.size())
                        .append(" waiting: ").append(hosts).append(hosts == 1 ? " host\n" : " hosts\n");
                break;
            }
            out.append("  ").append(line(wave)).append('\n');
        }
        return out.toString();
    }

    /** One wave: {@code wave 2 halted: 98 of 100 converged; failed: h0150; not settled: h0151}. */
    public static String line(RolloutView.WaveView wave) {
        StringBuilder line = new StringBuilder("wave ").append(wave.number()).append(wave.canary() ? " (canary) " : " ").append(wave.state())
                .append(": ").append(wave.converged().size()).append(" of ").append(wave.hosts().size()).append(" converged");
        if (!wave.failed().isEmpty()) line.append("; failed: ").append(names(wave.failed()));
        if (!wave.pending().isEmpty() && !wave.state().equals("waiting")) line.append("; not settled: ").append(names(wave.pending()));
        return line.toString();
    }

    /** The first names, and how many more. */
    public static String names(List<String> hosts) {
        if (hosts.size() <= NAMES) return String.join(", ", hosts);
        return String.join(", ", hosts.subList(0, NAMES)) + " and " + (hosts.size() - NAMES) + " more";
    }
}
