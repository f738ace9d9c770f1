package io.muster.engine.resource.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.run.LiveRun;
import io.muster.engine.run.RunOptions;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code timer}: under a live run each tick is one change that re-checks what follows it; a one-shot run never ticks. */
class TimerKindTest {
    private static final Duration PATIENCE = Duration.ofSeconds(15);

    @TempDir
    Path dir;

    private static final String GRAPH = """
            resources:
              - timer: [{every-second: {interval: 1}}]
              - exec: [{stamp: {command: "sh -c 'echo tick >> ROOT/ticks'", require: "timer#every-second"}}]
            """;

    @Test
    void eachTickIsAChangeThatRerunsWhatFollowsAndAOneShotRunBesideItSeesNoTick() throws Exception {
        Manifests manifests = new Manifests(dir);
        Path ticks = dir.resolve("ticks");
        List<ResourceReport> reports = new CopyOnWriteArrayList<>();
        RunOptions options = new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false, false);
        try (LiveRun live = new LiveRun(options, 0.2, new Metrics(), reports::add, converged -> {})) {
            live.swap(manifests.compile(GRAPH));
            await().atMost(PATIENCE).until(() -> Files.exists(ticks) && Files.readAllLines(ticks).size() >= 3);
            assertThat(reports).anySatisfy(r -> {
                assertThat(r.id()).isEqualTo("timer#every-second");
                assertThat(r.changes()).extracting(c -> c.describe()).containsExactly("tick absent -> 1s");
            });

            // the live run's timer of the same name keeps its ticks to itself
            ResourceReport oneShot = Manifests.resource(manifests.apply(GRAPH), "timer#every-second");
            assertThat(oneShot.status()).isEqualTo(Status.STABLE);
        }
    }

    @Test
    void theIntervalIsWholeSecondsAboveZero() {
        var interval = new TimerKind().schema().property("interval");
        assertThatThrownBy(() -> interval.coerce(0)).hasMessage("interval: expected whole seconds, 1 or more, got 0");
        assertThatThrownBy(() -> interval.coerce(1.5)).hasMessage("interval: expected whole seconds, 1 or more, got 1.5");
        assertThat(interval.coerce("30")).isEqualTo(30.0);
    }
}
