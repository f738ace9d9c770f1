package io.muster.coordinator.http;

import io.muster.coordinator.status.HostView;
import io.muster.coordinator.status.RolloutJson;
import io.muster.coordinator.status.RolloutView;
import io.muster.proto.fleet.Rollout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A rollout as the API shows it: {@code muster status --output json}'s rollout ({@link RolloutJson}) with each
 * wave's state made finer and each of its hosts' progress. A wave is {@code waiting}, {@code running}, {@code done},
 * {@code halted} (more hosts failed than it allows), {@code timed-out} (its timeout passed with hosts not settled)
 * or {@code stopped} (the rollout was superseded or rolled back meanwhile). A host is {@code converged} or
 * {@code failed} as the wave judged it (or, while it runs, as its keys say), {@code lost} when it failed because its
 * agent is gone, {@code applying} once its wave started and {@code pending} before.
 */
final class WavesJson {
    private WavesJson() {}

    /** {@code {"state", "reason", "wave", "waves": n}}: a line of {@code /api/v1/deploys}. */
    static Map<String, Object> summary(Rollout rollout) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("state", RolloutView.state(rollout.getState()));
        doc.put("reason", rollout.getReason().isEmpty() ? null : rollout.getReason());
        doc.put("wave", rollout.getWave() + 1);
        doc.put("waves", rollout.getWavesCount());
        return doc;
    }

    /** The rollout, each wave with {@code "progress": [{"host", "progress"}]}; {@code hosts} as their keys say now. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> of(RolloutView rollout, Function<String, Optional<HostView>> hosts) {
        Map<String, Object> doc = RolloutJson.of(rollout);
        List<Map<String, Object>> waves = (List<Map<String, Object>>) doc.get("waves");
        for (int i = 0; i < waves.size(); i++) {
            RolloutView.WaveView wave = rollout.waves().get(i);
            waves.get(i).put("state", state(wave));
            List<Object> progress = new ArrayList<>();
            for (String host : wave.hosts()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("host", host);
                one.put("progress", progress(wave, host, hosts.apply(host)));
                progress.add(one);
            }
            waves.get(i).put("progress", progress);
        }
        return doc;
    }

    private static String state(RolloutView.WaveView wave) {
        int allowed = wave.canary() ? 0 : wave.maxFailures();
        return wave.state().equals("halted") && wave.failed().size() <= allowed ? "timed-out" : wave.state();
    }

    private static String progress(RolloutView.WaveView wave, String host, Optional<HostView> view) {
        if (wave.converged().contains(host)) return "converged";
        if (wave.failed().contains(host)) return view.isEmpty() || !view.get().alive() ? "lost" : "failed";
        if (wave.started() == null) return "pending";
        return view.isPresent() && !view.get().alive() ? "lost" : "applying";
    }
}
