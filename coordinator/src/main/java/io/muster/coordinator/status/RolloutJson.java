package io.muster.coordinator.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rollout in {@code status} and {@code deploy --wait}'s JSON (fields are only ever added): {@code {"deploy",
 * "previous", "state", "reason", "wave", "waves": [{"wave", "canary", "state", "hosts", "converged", "failed",
 * "pending", "max_failures", "started", "ended"}]}}; {@code previous} null when hosts not reached keep no graph,
 * times ISO-8601 UTC or null.
 */
public final class RolloutJson {
    private RolloutJson() {}

    public static Map<String, Object> of(RolloutView rollout) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("deploy", rollout.deploy());
        doc.put("previous", rollout.previous() == 0 ? null : rollout.previous());
        doc.put("state", rollout.state());
        doc.put("reason", rollout.reason());
        doc.put("wave", rollout.wave());
        List<Object> waves = new ArrayList<>();
        for (RolloutView.WaveView w : rollout.waves()) {
            Map<String, Object> wave = new LinkedHashMap<>();
            wave.put("wave", w.number());
            wave.put("canary", w.canary());
            wave.put("state", w.state());
            wave.put("hosts", w.hosts());
            wave.put("converged", w.converged());
            wave.put("failed", w.failed());
            wave.put("pending", w.pending());
            wave.put("max_failures", w.maxFailures());
            wave.put("started", time(w.started()));
            wave.put("ended", time(w.ended()));
            waves.add(wave);
        }
        doc.put("waves", waves);
        return doc;
    }

    private static String time(Instant time) {
        return time == null ? null : time.toString();
    }
}
