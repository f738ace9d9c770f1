package io.muster.engine.world;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.muster.engine.world.World.Exported;
import io.muster.engine.world.World.Key;
import io.muster.engine.world.World.Registration;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every World promises (see {@link World}), as tests each World runs by extending this class with a
 * World of host {@code web1} (one per test, with nothing in it): the {@link MemoryWorld}, and the agent's
 * World over etcd.
 */
public abstract class WorldContract {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private World world;

    /** A new World of host {@code web1}, empty, ready to publish. */
    protected abstract World newWorld() throws Exception;

    /** How many writes each of the concurrent writers makes: fewer for a World behind a network. */
    protected int writesPerWriter() {
        return 500;
    }

    @BeforeEach
    void newWorldForEachTest() throws Exception {
        world = newWorld();
    }

    @Test
    void concurrentWritersAreSeenByAWatcherOnceEachInTheOrderTheyWereMade() throws Exception {
        int writers = 8;
        int puts = writesPerWriter();
        List<Optional<String>> seen = new CopyOnWriteArrayList<>();
        world.watch(Key.shared("counter"), seen::add);

        try (ExecutorService threads = Executors.newFixedThreadPool(writers)) {
            for (int w = 0; w < writers; w++) {
                int writer = w;
                threads.execute(() -> {
                    for (int n = 0; n < puts; n++) world.put(Key.shared("counter"), writer + ":" + n).join();
                });
            }
        }

        await().atMost(PATIENCE).until(() -> seen.size() == 1 + writers * puts);
        assertThat(seen.get(0)).isEmpty(); // the state when the watch began
        List<String> values = seen.subList(1, seen.size()).stream().map(Optional::orElseThrow).toList();
        assertThat(new HashSet<>(values)).hasSize(writers * puts);
        for (int w = 0; w < writers; w++) {
            String prefix = w + ":";
            List<Integer> ofWriter = values.stream().filter(v -> v.startsWith(prefix)).map(v -> Integer.parseInt(v.substring(prefix.length()))).toList();
            assertThat(ofWriter).isSorted();
        }
        assertThat(Optional.of(values.getLast())).isEqualTo(world.get(Key.shared("counter")).join());
    }

    @Test
    void writingWhatIsThereAlreadyIsNoChange() {
        List<Optional<String>> seen = new CopyOnWriteArrayList<>();
        world.watch(Key.host("motd"), seen::add);
        await().atMost(PATIENCE).until(() -> seen.size() == 1); // changes in quick succession may arrive as their last state: one at a time

        world.put(Key.host("motd"), "hello").join();
        await().atMost(PATIENCE).until(() -> seen.size() == 2);
        world.put(Key.host("motd"), "hello").join();
        world.delete(Key.host("motd")).join();
        await().atMost(PATIENCE).until(() -> seen.size() == 3);
        world.delete(Key.host("motd")).join();
        world.put(Key.host("motd"), "bye").join();

        await().atMost(PATIENCE).until(() -> seen.size() == 4);
        assertThat(seen).containsExactly(Optional.empty(), Optional.of("hello"), Optional.empty(), Optional.of("bye"));
    }

    @Test
    void aHostKeyAndASharedKeyOfTheSameNameAreTwoValues() {
        world.put(Key.host("role"), "mine").join();
        world.put(Key.shared("role"), "everyone's").join();

        assertThat(world.get(Key.host("role")).join()).contains("mine");
        assertThat(world.get(Key.shared("role")).join()).contains("everyone's");
        assertThat(world.get(Key.host("other")).join()).isEmpty();
    }

    @Test
    void aListenerMayUseTheWorldAndOneThatThrowsStillGetsTheNextChange() {
        List<Optional<String>> seen = new CopyOnWriteArrayList<>();
        world.watch(Key.host("in"), value -> {
            seen.add(value);
            if (value.isEmpty()) throw new IllegalStateException("a listener's bug");
            world.put(Key.host("out"), value.get().toUpperCase(java.util.Locale.ROOT)).join();
        });

        world.put(Key.host("in"), "echo").join();

        await().atMost(PATIENCE).until(() -> world.get(Key.host("out")).join().isPresent());
        assertThat(world.get(Key.host("out")).join()).contains("ECHO");
        assertThat(seen).containsExactly(Optional.empty(), Optional.of("echo"));
    }

    @Test
    void aClosedWatchIsToldNothingMore() {
        List<Optional<String>> closed = new CopyOnWriteArrayList<>();
        List<Optional<String>> open = new CopyOnWriteArrayList<>();
        Registration registration = world.watch(Key.host("k"), closed::add);
        await().atMost(PATIENCE).until(() -> closed.size() == 1);
        registration.close();
        world.watch(Key.host("k"), open::add);

        world.put(Key.host("k"), "v").join();

        await().atMost(PATIENCE).until(() -> open.size() == 2);
        assertThat(closed).containsExactly(Optional.empty());
    }

    @Test
    void aCollectionIsEveryExportOfItsKindSortedAndChangesWhenOneIsPublishedOrWithdrawn() {
        List<List<Exported>> seen = new CopyOnWriteArrayList<>();
        world.collect("file", seen::add);

        world.publish("file", "/etc/b", "{content: b}").join();
        world.publish("file", "/etc/a", "{content: a}").join();
        world.publish("file", "/etc/a", "{content: a}").join(); // the same again: no change
        world.publish("exec", "other-kind", "{}").join();
        world.withdraw("file", "/etc/b").join();
        world.withdraw("file", "/etc/never").join();

        await().atMost(PATIENCE).until(() -> { System.err.println("SEEN " + seen); return seen.size() == 4; });
        Exported a = new Exported("web1", "file", "/etc/a", "{content: a}");
        Exported b = new Exported("web1", "file", "/etc/b", "{content: b}");
        assertThat(seen).containsExactly(List.of(), List.of(b), List.of(a, b), List.of(a));
    }

    @Test
    void namesAndValuesOutsideTheLimitsAreRefusedSaying() {
        assertThatThrownBy(() -> world.put(Key.host("big"), "x".repeat(World.MAX_VALUE_BYTES + 1)))
                .hasMessage("a value may hold at most 1048576 bytes, got 1048577");
        assertThatThrownBy(() -> Key.shared("two\nlines"))
                .hasMessage("key must be 1 to 1024 characters without control characters, got 'two\nlines'");
        assertThatThrownBy(() -> world.publish("", "x", "{}"))
                .hasMessage("kind must be 1 to 1024 characters without control characters, got ''");
        assertThat(world.get(Key.host("big")).join()).isEmpty();
    }
}
