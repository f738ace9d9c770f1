package io.muster.engine.resource.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.muster.engine.resource.Params;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Watcher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code timer}: stable until it ticks; a tick is one change, reported once. */
class TimerKindTest {

    private static Resource timer(Object interval) throws Exception {
        return new TimerKind().create(new Params("t", Map.of("interval", interval), Path.of("/")));
    }

    @Test
    void aTickIsAChangeOnceThenTheTimerIsStableAgain() throws Exception {
        Resource timer = timer(1.0);
        assertThat(timer.checkApply(null, true).isChanged()).isFalse();
        AtomicInteger events = new AtomicInteger();
        Thread watch = Thread.ofVirtual().start(() -> {
            try {
                timer.watch(new CountingWatcher(events));
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

    private record CountingWatcher(AtomicInteger events) implements Watcher {
        @Override
        public void changed() {
            events.incrementAndGet();
        }

        @Override
        public void ready() {}

        @Override
        public AutoCloseable watchPath(Path path, Runnable onChange) {
            throw new UnsupportedOperationException();
        }

        @Override
        public AutoCloseable watchEntries(Path dir, Runnable onChange) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <S> S session(Class<S> type) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Logger log() {
            return LoggerFactory.getLogger(TimerKindTest.class);
        }
    }
}
