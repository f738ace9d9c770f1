package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.testing.Manifests;
import io.muster.engine.world.MemoryWorld;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing a reload throws ends the reload thread: the running graph stays, and the next edit is applied. Every
 * manifest the graph was compiled from is watched. An edit is read once the manifest has been quiet for a
 * moment, on the run's clock.
 */
class ManifestReloaderTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private LiveRun live;
    private ManifestReloader reloader;

    @AfterEach
    void stop() throws Exception {
        if (reloader != null) reloader.close();
        if (live != null) live.close();
    }

    @Test
    void aReloadThatThrowsAnErrorLeavesTheThreadWatchingForTheNextEdit() throws Exception {
        Manifests manifests = new Manifests(dir);
        Path site = manifests.write("site.yaml", fileWith("v1"));
        Graph graph = manifests.compile(site, Map.of());
        live = new LiveRun(new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false), 0.2, new Metrics(),
                report -> {}, converged -> {});
        live.swap(graph);
        await().atMost(PATIENCE).ignoreExceptions().until(() -> content().equals("v1\n"));
        // what a compiler bug or a stack overflow would throw: an Error, which once ended the thread
        List<String> thrown = new CopyOnWriteArrayList<>();
        Supplier<Optional<Graph>> compile = () -> {
            try {
                String text = Files.readString(site);
                if (text.contains("overflow")) {
                    thrown.add(text);
                    throw new StackOverflowError();
                }
                if (text.contains("bug")) {
                    thrown.add(text);
                    throw new IllegalStateException("a bug");
                }
                return Optional.of(manifests.compile(site, Map.of()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ManifestException e) {
                return Optional.empty();
            }
        };
        reloader = new ManifestReloader(live, graph, compile);

        int edit = 0;
        for (String failing : new String[] {"overflow", "bug", "overflow"}) {
            Files.writeString(site, fileWith(failing));
            await().atMost(PATIENCE).until(() -> thrown.contains(fileWith(failing)));
            String valid = "v" + (2 + edit++);
            Files.writeString(site, fileWith(valid));
            await().atMost(PATIENCE).ignoreExceptions().until(() -> content().equals(valid + "\n"));
        }
    }

    @Test
    void anEditOfAChildManifestWithoutResourcesIsReloaded() throws Exception {
        Manifests manifests = new Manifests(dir);
        manifests.write("lib/empty.yaml", "resources: []\n");
        Path site = manifests.write("site.yaml", "resources: [{apply: [lib/empty.yaml]}]\n");
        Graph graph = manifests.compile(site, Map.of());
        live = new LiveRun(new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false), 0.2, new Metrics(),
                report -> {}, converged -> {});
        live.swap(graph);
        reloader = new ManifestReloader(live, graph, () -> compiled(manifests, site));
        manifests.write("lib/empty.yaml", fileWith("from the child"));
        await().atMost(PATIENCE).ignoreExceptions().until(() -> content().equals("from the child\n"));
    }

    @Test
    void anEditIsReloadedOnceTheManifestWasQuietFor100msOnTheRunsClock() throws Exception {
        FakeClock clock = new FakeClock();
        Manifests manifests = new Manifests(dir);
        Path site = manifests.write("site.yaml", fileWith("v1"));
        Graph graph = manifests.compile(site, Map.of());
        live = new LiveRun(new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false), new MemoryWorld("testhost"), LiveRun.Quiet.of(0),
                new Metrics(), report -> {}, converged -> {}, clock, Thread.ofVirtual().factory());
        live.swap(graph);
        assertThat(live.awaitConverged(PATIENCE.toNanos())).isTrue();
        AtomicInteger compiles = new AtomicInteger();
        reloader = new ManifestReloader(live, graph, () -> {
            compiles.incrementAndGet();
            return compiled(manifests, site);
        });
        // told of each save right after the reloader (one watch, subscribers in order): a save has reached it then
        AtomicInteger saves = new AtomicInteger();
        try (AutoCloseable seen = live.watchPath(site, saves::incrementAndGet)) {
            save(site, fileWith("v2"));
            await().atMost(PATIENCE).until(() -> saves.get() == 1 && clock.waiters() > 0); // waiting for quiet
            clock.advance(60, TimeUnit.MILLISECONDS);
            save(site, fileWith("v3")); // an editor's second write: the quiet period starts again
            await().atMost(PATIENCE).until(() -> saves.get() == 2);
            clock.advance(60, TimeUnit.MILLISECONDS);
            await().atMost(PATIENCE).until(() -> clock.waiters() > 0);
            assertThat(compiles).as("120 ms after the first save, 60 after the second").hasValue(0);
            clock.advance(40, TimeUnit.MILLISECONDS);
            await().atMost(PATIENCE).ignoreExceptions().until(() -> content().equals("v3\n"));
            assertThat(compiles).hasValue(1);
        }
    }

    private static Optional<Graph> compiled(Manifests manifests, Path site) {
        try {
            return Optional.of(manifests.compile(site, Map.of()));
        } catch (ManifestException e) {
            return Optional.empty();
        }
    }

    /** Saves as most editors do: a new file renamed over the old one, which the watch sees as one event. */
    private static void save(Path file, String content) throws IOException {
        Path temporary = file.resolveSibling("." + file.getFileName() + ".swp");
        Files.writeString(temporary, content);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    }

    private String fileWith(String content) {
        return "resources:\n  - file: [{" + dir.resolve("a") + ": {content: \"" + content + "\\n\"}}]\n";
    }

    private String content() throws IOException {
        return Files.readString(dir.resolve("a"));
    }
}
