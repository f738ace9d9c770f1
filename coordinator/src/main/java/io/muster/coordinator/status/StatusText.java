package io.muster.coordinator.status;

import io.muster.proto.fleet.Collected;
import io.muster.proto.fleet.Failure;
import io.muster.proto.fleet.HostStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code muster status}: the current deploy, then a line per host (name, alive, deploy applied, converged,
 * changed and failed counts, age of its last report), each failed resource and error indented below it, and
 * what it exports (up to three named), how many exports of other hosts it collected, each one it rejected with why.
 */
public final class StatusText {
    private static final List<String> HEADER = List.of("HOST", "ALIVE", "DEPLOY", "CONVERGED", "CHANGED", "FAILED", "REPORTED");

    private StatusText() {}

    public static String render(FleetStatus fleet, Instant now) {
        StringBuilder out = new StringBuilder();
        out.append("current deploy: ").append(fleet.current().isPresent() ? fleet.current().getAsLong() : "none").append('\n');
        fleet.rollout().ifPresent(rollout -> out.append(RolloutText.render(rollout)));
        if (fleet.hosts().isEmpty()) return out.append("no hosts\n").toString();
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (HostView host : fleet.hosts()) rows.add(row(host, now));
        Columns columns = new Columns(rows);
        for (int r = 0; r < rows.size(); r++) {
            out.append(columns.line(rows.get(r)));
            if (r > 0) details(fleet.hosts().get(r - 1), fleet.exportsOf(fleet.hosts().get(r - 1).host()), out);
        }
        return out.toString();
    }

    private static List<String> row(HostView host, Instant now) {
        HostStatus s = host.status().orElse(null);
        return List.of(host.host(), host.alive() ? "yes" : "no",
                s == null || s.getDeploy() == 0 ? "-" : String.valueOf(s.getDeploy()),
                s == null ? "-" : s.getConverged() ? "yes" : "no",
                s == null ? "-" : String.valueOf(s.getSummary().getChanged()),
                s == null ? "-" : String.valueOf(s.getSummary().getFailed()),
                s == null || s.getUpdated() == 0 ? "never" : age(Duration.between(Instant.ofEpochMilli(s.getUpdated()), now)) + " ago");
    }

    private static void details(HostView host, List<String> exports, StringBuilder out) {
        if (!exports.isEmpty()) {
            out.append("  exports ").append(exports.size() <= 3 ? String.join(", ", exports) : exports.size() + " resources (muster exports)")
                    .append('\n');
        }
        host.status().ifPresent(s -> {
            for (Failure f : s.getFailedList()) indented(out, "  failed " + f.getId() + ": ", f.getError());
            long applied = s.getCollectedList().stream().filter(c -> c.getRejected().isEmpty()).count();
            if (applied > 0) out.append("  collected ").append(applied).append(applied == 1 ? " export\n" : " exports\n");
            for (Collected c : s.getCollectedList()) if (!c.getRejected().isEmpty()) indented(out, "  rejected " + c.getId() + ": ", c.getRejected());
        });
        if (host.error() != null) indented(out, "  error: ", host.error());
    }

    /** {@code label} and {@code text}, each further line of the text (a compile error per manifest) under the first. */
    private static void indented(StringBuilder out, String label, String text) {
        out.append(label).append(text.strip().replace("\n", "\n" + " ".repeat(label.length()))).append('\n');
    }

    /** A duration as people read an age: 5s, 3m, 2h, 4d. */
    public static String age(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 120) return s + "s";
        if (s < 120 * 60) return s / 60 + "m";
        if (s < 48 * 3600) return s / 3600 + "h";
        return s / 86400 + "d";
    }
}
