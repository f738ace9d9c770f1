package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When a live run counts as converged, judged on a clock the test moves: no sleeping, no wall-clock margins. */
class ConvergenceTest {
    private final FakeClock clock = new FakeClock();
    private final List<Boolean> transitions = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final List<Convergence> judges = new CopyOnWriteArrayList<>();
    /** A quiet period of 1 s after anything, as {@code muster run} has. */
    private final Convergence convergence = convergence(1000);

    /** A quiet period of 1 s after a change or failure, of {@code settleMillis} after a new graph's own changes. */
    private Convergence convergence(long settleMillis) {
        Convergence judge = new Convergence(TimeUnit.SECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(settleMillis), transitions::add, clock, r -> {
            Thread t = Thread.ofVirtual().unstarted(r);
            threads.add(t);
            return t;
        });
        judges.add(judge);
        return judge;
    }

    @AfterEach
    void close() {
        judges.forEach(Convergence::close);
    }

    @Test
    void convergedOnceNothingIsBusyForTheQuietPeriod() {
        convergence.busy("a");
        convergence.start();
        convergence.idle("a");
        awaitTimedWait();
        assertThat(convergence.converged()).isFalse();
        clock.advance(999, TimeUnit.MILLISECONDS);
        awaitTimedWait();
        assertThat(convergence.converged()).isFalse();
        clock.advance(1, TimeUnit.MILLISECONDS);
        await().until(convergence::converged);
        await().until(() -> transitions.equals(List.of(true)));
    }

    @Test
    void aChangeOrFailureStartsTheQuietPeriodAgainAndEndsConvergenceAtOnce() {
        convergence.start();
        clock.advance(1, TimeUnit.SECONDS);
        await().until(convergence::converged);
        convergence.eventful();
        assertThat(convergence.converged()).isFalse(); // at once, not when the judge wakes up
        awaitTimedWait();
        clock.advance(600, TimeUnit.MILLISECONDS);
        convergence.eventful(); // again, before the quiet period has passed
        awaitTimedWait();
        clock.advance(600, TimeUnit.MILLISECONDS);
        awaitTimedWait();
        assertThat(convergence.converged()).isFalse();
        clock.advance(400, TimeUnit.MILLISECONDS);
        await().until(convergence::converged);
        await().until(() -> transitions.equals(List.of(true, false, true)));
    }

    @Test
    void aNewGraphsOwnChangesNeedOnlyTheSettlingPeriodButARepairTheWholeQuietPeriod() {
        Convergence settling = convergence(100);
        settling.busy(Engine.SWAPPING);
        settling.start(); // starting is no drift either
        settling.idle(Engine.SWAPPING);
        awaitTimedWait();
        clock.advance(100, TimeUnit.MILLISECONDS);
        await().until(settling::converged);

        settling.settling(); // a new graph, then its new resources' first applies
        assertThat(settling.converged()).isFalse();
        awaitTimedWait();
        clock.advance(99, TimeUnit.MILLISECONDS);
        awaitTimedWait();
        assertThat(settling.converged()).isFalse();
        clock.advance(1, TimeUnit.MILLISECONDS);
        await().until(settling::converged);

        settling.settling();
        settling.eventful(); // a repair meanwhile: the whole quiet period again
        awaitTimedWait();
        clock.advance(100, TimeUnit.MILLISECONDS);
        awaitTimedWait();
        assertThat(settling.converged()).isFalse();
        clock.advance(900, TimeUnit.MILLISECONDS);
        await().until(settling::converged);
        await().until(() -> transitions.equals(List.of(true, false, true, false, true)));
    }

    @Test
    void aBusyResourceKeepsItFromConvergingHoweverLongItTakes() {
        convergence.busy("slow");
        convergence.start();
        await().until(() -> threads.getFirst().getState() == Thread.State.WAITING);
        clock.advance(1, TimeUnit.HOURS);
        assertThat(convergence.converged()).isFalse();
        convergence.idle("slow"); // nothing changed meanwhile: the quiet period has long passed
        await().until(convergence::converged);
    }

    @Test
    void awaitConvergedGivesUpWhenItsTimeHasPassed() throws Exception {
        convergence.busy("slow");
        convergence.start();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                assertThat(convergence.awaitConverged(TimeUnit.SECONDS.toNanos(5))).isFalse();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        await().until(() -> clock.waiters() == 1);
        clock.advance(5, TimeUnit.SECONDS);
        waiter.join();
    }

    /** Waits until the judge waits for the quiet period to pass on the fake clock. */
    private void awaitTimedWait() {
        await().until(() -> clock.waiters() == 1);
    }
}
