package io.muster.engine.resource.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.muster.engine.resource.Params;
import io.muster.engine.resource.Resource;
import io.muster.engine.testing.CountingWatcher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@code timer}: stable until it ticks; a tick is one change, reported once. */
class TimerKindTest {

    private static Resource timer(Object interval) throws Exception {
        return new TimerKind().create(new Params("t", Map.of("interval", interval), Path.of("/")));
    }

    @Test
    void aTickIsAChangeOnceThenTheTimerIsStableAgain() throws Exception {
        Resource timer = timer(1.0);
        assertThat(timer.checkApply(null, true).isChanged()).isFalse();
        CountingWatcher watcher = new CountingWatcher();
        AtomicInteger events = watcher.changes();
        Thread watch = Thread.ofVirtual().start(() -> {
            try {
                timer.watch(watcher);
            } catch (Exception e) {
                // interrupted: the watch ends
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> events.get() >= 1);
        watch.interrupt();
        assertThat(timer.checkApply(null, false).isChanged()).isTrue();
        assertThat(timer.checkApply(null, true).changes()).extracting(c -> c.describe()).containsExactly("tick absent -> 1s");
        assertThat(timer.checkApply(null, true).isChanged()).isFalse();
    }

    @Test
    void theIntervalIsWholeSecondsAboveZero() {
        var interval = new TimerKind().schema().property("interval");
        assertThatThrownBy(() -> interval.coerce(0)).hasMessage("interval: expected whole seconds, 1 or more, got 0");
        assertThatThrownBy(() -> interval.coerce(1.5)).hasMessage("interval: expected whole seconds, 1 or more, got 1.5");
        assertThat(interval.coerce("30")).isEqualTo(30.0);
    }
}
