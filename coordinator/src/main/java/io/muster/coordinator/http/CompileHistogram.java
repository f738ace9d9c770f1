package io.muster.coordinator.http;

import io.muster.coordinator.CompileTimes;
import io.prometheus.metrics.core.metrics.Histogram;
import java.time.Duration;

/**
 * {@code muster_coordinator_compile_seconds}: how long each host's compile took, by result. Made before the
 * coordinator (which tells it each compile) and the API server (whose {@code /metrics} shows it).
 */
public final class CompileHistogram implements CompileTimes {
    private final Histogram histogram = Histogram.builder().name("muster_coordinator_compile_seconds")
            .help("How long compiling one host's graph took, by result: ok, or error when the manifest did not compile")
            .labelNames("result").classicOnly()
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
            .withoutExemplars().build();

    public CompileHistogram() {
        histogram.labelValues("ok"); // both series from the start, at zero, so a rate() sees the first compile
        histogram.labelValues("error");
    }

    @Override
    public void compiled(Duration took, boolean failed) {
        histogram.labelValues(failed ? "error" : "ok").observe(took.toNanos() / 1e9);
    }

    Histogram histogram() {
        return histogram;
    }
}
