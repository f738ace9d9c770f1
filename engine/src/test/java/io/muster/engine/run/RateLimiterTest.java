package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code meta.limit}/{@code meta.burst} as a token bucket, on a clock the test moves. */
class RateLimiterTest {
    private final FakeClock clock = new FakeClock();

    @Test
    void aBurstRunsAtOnceThenEachRunWaitsForItsToken() {
        RateLimiter limiter = RateLimiter.of(4, 2, clock); // 4 a second: a token every 250 ms
        assertThat(limiter.reserve()).isZero();
        assertThat(limiter.reserve()).isZero();
        assertThat(limiter.reserve()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
        assertThat(limiter.reserve()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500)); // queued behind the one before
    }

    @Test
    void tokensComeBackWithTimeButNoMoreThanTheBurst() {
        RateLimiter limiter = RateLimiter.of(4, 2, clock);
        limiter.reserve();
        limiter.reserve();
        clock.advance(1, TimeUnit.HOURS); // a long quiet spell refills the bucket, to the burst only
        assertThat(limiter.reserve()).isZero();
        assertThat(limiter.reserve()).isZero();
        assertThat(limiter.reserve()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
        clock.advance(250, TimeUnit.MILLISECONDS);
        assertThat(limiter.reserve()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(250)); // the debt was paid, this one waits its own
    }

    @Test
    void noLimitIsNoLimiter() {
        assertThat(RateLimiter.of(Double.POSITIVE_INFINITY, 0, clock)).isNull();
    }
}
