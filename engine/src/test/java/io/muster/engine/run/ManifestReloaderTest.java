package io.muster.engine.run;

import static org.awaitility.Awaitility.await;

import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing a reload throws ends the reload thread: the running graph stays, and the next edit is applied. Every
 * manifest the graph was compiled from is watched.
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
        Supplier<Graph> compile = () -> {
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
                return manifests.compile(site, Map.of());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ManifestException e) {
                return null;
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
        reloader = new ManifestReloader(live, graph, () -> {
            try {
                return manifests.compile(site, Map.of());
            } catch (ManifestException e) {
                return null;
            }
        });
        manifests.write("lib/empty.yaml", fileWith("from the child"));
        await().atMost(PATIENCE).ignoreExceptions().until(() -> content().equals("from the child\n"));
    }

    private String fileWith(String content) {
        return "resources:\n  - file: [{" + dir.resolve("a") + ": {content: \"" + content + "\\n\"}}]\n";
    }

    private String content() throws IOException {
        return Files.readString(dir.resolve("a"));
    }
}
