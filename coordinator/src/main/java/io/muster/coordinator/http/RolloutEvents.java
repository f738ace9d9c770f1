package io.muster.coordinator.http;

import io.muster.coordinator.status.HostView;
import io.muster.coordinator.status.RolloutView;
import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import io.muster.proto.fleet.Wave;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a change of a rollout's key says happened, as the event stream tells it: {@code wave} events (a wave
 * {@code started}, is {@code done}, or {@code halted} / {@code timed-out} with the reason and the hosts that failed
 * or did not settle), and a {@code rollout} event when the rollout as a whole changed state ({@code resumed},
 * {@code done}, {@code superseded}, {@code rolled_back}). Each carries the rollout as {@code /api/v1/deploys/ID}
 * has it, so a page redraws the waves from the event alone. They are read off the stored rollout, not told by the
 * leader that drives it, so every coordinator tells the same events.
 */
final class RolloutEvents {
    /** One event: its type ({@code wave} or {@code rollout}) and document. */
    record Told(String type, Map<String, Object> data) {}

    private RolloutEvents() {}

    /** The events between {@code before} (null: a rollout not seen until now) and {@code after}. */
    static List<Told> between(Rollout before, Rollout after, Function<String, Optional<HostView>> hosts) {
        Map<String, Object> rollout = WavesJson.of(RolloutView.of(after, hosts), hosts);
        List<Told> told = new ArrayList<>();
        for (int i = 0; i < after.getWavesCount(); i++) {
            Wave was = before == null || i >= before.getWavesCount() ? Wave.getDefaultInstance() : before.getWaves(i);
            Wave now = after.getWaves(i);
            if (was.getStarted() == 0 && now.getStarted() != 0) told.add(wave(after, i, "started", rollout));
            if (was.getEnded() == 0 && now.getEnded() != 0) told.add(wave(after, i, "done", rollout));
        }
        RolloutState was = before == null ? RolloutState.ROLLOUT_STATE_UNKNOWN : before.getState();
        if (after.getState() == RolloutState.STALLED && (was != RolloutState.STALLED || before.getUpdated() != after.getUpdated())) {
            told.add(wave(after, after.getWave(), (String) waveDoc(rollout, after.getWave()).get("state"), rollout));
        } else if (before != null && was != after.getState()) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("deploy", after.getDeploy());
            data.put("event", was == RolloutState.STALLED && after.getState() == RolloutState.RUNNING ? "resumed" : RolloutView.state(after.getState()));
            data.put("reason", after.getReason().isEmpty() ? null : after.getReason());
            data.put("rollout", rollout);
            told.add(new Told("rollout", data));
        }
        return told;
    }

    /** {@code {"deploy", "wave", "waves", "event", "reason", "failed", "pending", "rollout"}}; reason null but for a halt. */
    private static Told wave(Rollout rollout, int index, String event, Map<String, Object> doc) {
        Map<String, Object> wave = waveDoc(doc, index);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("deploy", rollout.getDeploy());
        data.put("wave", index + 1);
        data.put("waves", rollout.getWavesCount());
        data.put("event", event);
        data.put("reason", event.equals("halted") || event.equals("timed-out") ? rollout.getReason() : null);
        data.put("failed", wave.get("failed"));
        data.put("pending", wave.get("pending"));
        data.put("rollout", doc);
        return new Told("wave", data);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> waveDoc(Map<String, Object> rollout, int index) {
        return ((List<Map<String, Object>>) rollout.get("waves")).get(index);
    }
}
