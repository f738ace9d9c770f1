package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.muster.engine.graph.Graph;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Kinds;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.SessionContext;
import io.muster.engine.resource.TypedParams;
import io.muster.engine.testing.Manifests;
import io.muster.engine.testing.SessionKind;
import io.muster.engine.world.MemoryWorld;
import io.muster.engine.world.World;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Per-kind sessions: opened once per run however many resources use them, in parallel, closed when the run
 * ends or the kind leaves the graph; a failed open fails the resources that needed it, a failed close is
 * logged. Resources see their manifest's directory and the run's World; their watches see the session too.
 */
class KindSessionsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final MemoryWorld world = new MemoryWorld("testhost");

    private RunOptions options() {
        return new RunOptions("testhost", false, 8, dir.resolve(".prefix"), false, false);
    }

    /** {@code counted} resources named {@code prefix0} to {@code prefix<count-1>}. */
    private static String counted(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> "      - " + prefix + i + ": {}\n").collect(Collectors.joining());
    }

    private Report apply(SessionKind kind, String yaml) throws Exception {
        Manifests manifests = new Manifests(dir, Kinds.installed().with(kind));
        return new OneShotRun(manifests.compile(yaml), options(), world, r -> {}).run();
    }

    @Test
    void oneSessionServesEveryResourceOfTheKindAndClosesWhenApplyEnds() throws Exception {
        SessionKind kind = new SessionKind();
        Manifests manifests = new Manifests(dir, Kinds.installed().with(kind));
        manifests.write("lib/child.yaml", "resources:\n  - counted:\n" + counted("child", 5));

        Report report = apply(kind, "resources:\n  - counted:\n" + counted("root", 30) + "  - apply:\n      - lib/child.yaml: {}\n");

        assertThat(report.resources()).allMatch(r -> r.status() == Status.STABLE, "stable");
        assertThat(kind.opens()).isEqualTo(1);
        SessionKind.Session session = kind.sessions().getFirst();
        assertThat(session.closes()).isEqualTo(1);
        assertThat(session.hostname()).isEqualTo("testhost");
        assertThat(session.users()).hasSize(35)
                .containsEntry("root0", dir)
                .containsEntry("root29", dir)
                .containsEntry("child0", dir.resolve("lib")) // a child manifest's resources get its directory
                .containsEntry("child4", dir.resolve("lib"));
        assertThat(world.get(World.Key.host("child4")).join()).contains("used"); // the run's World, not one of its own
    }

    @Test
    void aRunWithoutResourcesOfTheKindNeverOpensItsSession() throws Exception {
        SessionKind kind = new SessionKind();

        apply(kind, "resources:\n  - noop:\n      - nothing: {}\n");

        assertThat(kind.opens()).isZero();
    }

    @Test
    void aSessionThatCannotOpenFailsTheResourcesThatNeedItSayingWhyAndTheRestRuns() throws Exception {
        SessionKind kind = new SessionKind("no package database at /var/lib/dpkg", null);

        Report report = apply(kind, "resources:\n  - counted:\n" + counted("c", 4) + "  - file:\n      - ROOT/other: {content: x}\n");

        for (int i = 0; i < 4; i++) {
            ResourceReport r = Manifests.resource(report, "counted#c" + i);
            assertThat(r.status()).isEqualTo(Status.FAILED);
            assertThat(r.error()).isEqualTo("cannot open the session of counted: no package database at /var/lib/dpkg");
        }
        assertThat(Manifests.resource(report, "file#" + dir.resolve("other")).status()).isEqualTo(Status.CHANGED);
        assertThat(kind.opens()).isBetween(1, 4); // those asking at the same time share one attempt
        assertThat(kind.sessions()).isEmpty();
    }

    @Test
    void aSessionThatFailsToCloseIsLoggedAndTheRunEndsAsItWould() throws Exception {
        SessionKind kind = new SessionKind(null, "the bus went away");
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger("muster.counted");
        log.start();
        logger.addAppender(log);
        try {
            Report report = apply(kind, "resources:\n  - counted:\n" + counted("c", 3));

            assertThat(report.resources()).extracting(ResourceReport::status).containsOnly(Status.STABLE);
            assertThat(kind.sessions().getFirst().closes()).isEqualTo(1);
            assertThat(log.list).anySatisfy(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).isEqualTo("closing the session of counted failed: the bus went away");
            });
        } finally {
            logger.detachAppender(log);
        }
    }

    @Test
    void aLiveRunKeepsTheSessionAcrossSwapsWhileTheKindStaysAndClosesItWhenTheKindLeavesOrTheRunEnds() throws Exception {
        SessionKind kind = new SessionKind();
        Manifests manifests = new Manifests(dir, Kinds.installed().with(kind));
        List<ResourceReport> reports = new CopyOnWriteArrayList<>();
        try (LiveRun live = new LiveRun(options(), world, 0.1, new Metrics(), reports::add, converged -> {})) {
            swap(live, manifests.compile("resources:\n  - counted:\n" + counted("a", 10)));
            assertThat(kind.sessions()).hasSize(1);

            swap(live, manifests.compile("resources:\n  - counted:\n" + counted("b", 10) + "  - file:\n      - ROOT/f: {content: x}\n"));
            SessionKind.Session first = kind.sessions().getFirst();
            assertThat(kind.sessions()).hasSize(1);
            assertThat(first.closes()).isZero();
            assertThat(first.users()).containsKeys("a0", "b9");

            swap(live, manifests.compile("resources:\n  - file:\n      - ROOT/f: {content: x}\n"));
            assertThat(first.closes()).isEqualTo(1); // no resource of the kind is left

            swap(live, manifests.compile("resources:\n  - counted:\n" + counted("c", 3)));
            assertThat(kind.sessions()).hasSize(2);
            assertThat(kind.sessions().get(1).users()).containsOnlyKeys("c0", "c1", "c2");
        }
        assertThat(kind.opens()).isEqualTo(2);
        assertThat(kind.sessions()).extracting(SessionKind.Session::closes).containsExactly(1, 1);
        assertThat(reports).extracting(ResourceReport::status).doesNotContain(Status.FAILED);
    }

    @Test
    void aWatchReachesTheSessionItsResourcesChecksUse() throws Exception {
        SessionKind kind = new SessionKind();
        Manifests manifests = new Manifests(dir, Kinds.installed().with(kind));
        try (LiveRun live = new LiveRun(options(), world, 0.1, new Metrics(), r -> {}, converged -> {})) {
            swap(live, manifests.compile("resources:\n  - counted:\n" + counted("a", 3)));

            assertThat(kind.sessions()).singleElement().satisfies(session -> {
                assertThat(session.watching()).containsExactlyInAnyOrder("a0", "a1", "a2");
                assertThat(session.users()).containsOnlyKeys("a0", "a1", "a2");
            });
        }
        assertThat(kind.opens()).isEqualTo(1);
        assertThat(kind.sessions().getFirst().closes()).isEqualTo(1);
    }

    @Test
    void resourcesAskingAtTheSameTimeShareOneOpen() throws Exception {
        int iterations = 1000;
        int askers = 16;
        SessionKind kind = new SessionKind();
        for (int i = 0; i < iterations; i++) {
            KindSessions sessions = new KindSessions(options(), world, false);
            CyclicBarrier start = new CyclicBarrier(askers);
            Set<Object> got = ConcurrentHashMap.newKeySet();
            try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int t = 0; t < askers; t++) {
                    threads.submit(() -> {
                        start.await();
                        return got.add(sessions.of(kind, SessionKind.Session.class));
                    });
                }
            }
            sessions.close();
            assertThat(got).hasSize(1);
        }
        assertThat(kind.opens()).isEqualTo(iterations);
        assertThat(kind.sessions()).extracting(SessionKind.Session::closes).containsOnly(1);
    }

    @Test
    void aSessionThatFinishesOpeningAfterTheRunEndedIsClosedAtOnce() throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch mayOpen = new CountDownLatch(1);
        AtomicInteger closes = new AtomicInteger();
        ResourceKind slow = new ResourceKind() {
            @Override
            public String name() {
                return "slow";
            }

            @Override
            public Schema schema() {
                return Schema.of(null, Set.of());
            }

            @Override
            public Resource create(TypedParams params) {
                throw new UnsupportedOperationException("only its session is used");
            }

            @Override
            public AutoCloseable openSession(SessionContext context) throws InterruptedException {
                opening.countDown();
                mayOpen.await();
                return closes::incrementAndGet;
            }
        };
        KindSessions sessions = new KindSessions(options(), world, false);
        CompletableFuture<AutoCloseable> asked = CompletableFuture.supplyAsync(() -> {
            try {
                return sessions.of(slow, AutoCloseable.class);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        opening.await();

        sessions.close();
        mayOpen.countDown();

        asked.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(closes.get()).isEqualTo(1);
    }

    private static void swap(LiveRun live, Graph graph) throws InterruptedException {
        live.swap(graph);
        assertThat(live.awaitConverged(PATIENCE.toNanos())).isTrue();
    }
}
