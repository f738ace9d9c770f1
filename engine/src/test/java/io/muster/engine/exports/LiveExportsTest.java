package io.muster.engine.exports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.engine.graph.Graph;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.run.LiveRun;
import io.muster.engine.run.RunOptions;
import io.muster.engine.testing.Manifests;
import io.muster.engine.world.MemoryWorld;
import io.muster.engine.world.World;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A web host's live run exports, a load balancer's live run collects, each over its own in-memory World. */
class LiveExportsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final MemoryWorld web = new MemoryWorld("web1");
    private final List<LiveRun> runs = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (LiveRun run : runs) run.close();
    }

    private LiveRun start(String host, World world, Graph graph) throws Exception {
        RunOptions options = new RunOptions(host, false, 4, dir.resolve(".prefix-" + host), false, false);
        LiveRun run = new LiveRun(options, world, 0.2, new Metrics(), r -> {}, c -> {});
        runs.add(run);
        run.swap(graph);
        return run;
    }

    private Graph compile(String name, String yaml) throws Exception {
        Manifests manifests = new Manifests(dir);
        return manifests.compile(manifests.write(name, yaml), Map.of());
    }

    private Graph webGraph(String port) throws Exception {
        return compile("web.yaml", """
                resources:
                  - exec: [{addr: {command: "echo 10.0.0.1"}}]
                  - file:
                      - ROOT/pool/web1:
                          content: "server {{ lookup('exec#addr.stdout') }}:PORT\\n"
                          meta: {export: {tags: [pool]}}
                """.replace("PORT", port));
    }

    @Test
    void anExportIsRenderedAndPublishedNotAppliedAndWithdrawnWhenItLeavesTheGraph() throws Exception {
        Path pool = dir.resolve("pool");
        LiveRun run = start("web1", web, webGraph("8080"));
        assertThat(run.awaitConverged(PATIENCE.toNanos())).isTrue();
        List<World.Exported> files = collection("file");
        assertThat(files).singleElement().satisfies(e -> {
            ExportedResource r = ExportedResource.decode(e.content());
            assertThat(r.params()).containsEntry("content", "server 10.0.0.1:8080\n").containsEntry("path", pool.resolve("web1").toString());
            assertThat(r.tags()).containsExactly("pool");
        });
        assertThat(pool).doesNotExist();

        run.swap(compile("web.yaml", "resources: []"));
        await().atMost(PATIENCE).until(() -> collection("file").isEmpty());
    }

    @Test
    void aResourceWithSensitiveValuesIsNotExported() throws Exception {
        List<String> errors = new CopyOnWriteArrayList<>();
        RunOptions options = new RunOptions("web1", false, 4, dir.resolve(".prefix"), false, false);
        LiveRun run = new LiveRun(options, web, 0.2, new Metrics(), r -> {
            if (r.error() != null) errors.add(r.error());
        }, c -> {});
        runs.add(run);
        run.swap(compile("web.yaml", """
                resources:
                  - file:
                      - ROOT/pool/secret: {content: "s3cret", sensitive: true, meta: {export: true}}
                """));
        assertThat(run.awaitConverged(PATIENCE.toNanos())).isTrue();
        assertThat(errors).singleElement().asString().endsWith("meta.export: a resource with sensitive values is not exported (they would be stored in the fleet)");
        assertThat(collection("file")).isEmpty();
    }

    @Test
    void anExportItsConditionSkipsIsWithdrawn() throws Exception {
        LiveRun run = start("web1", web, webGraph("8080"));
        await().atMost(PATIENCE).until(() -> collection("file").size() == 1);
        run.swap(compile("web.yaml", """
                resources:
                  - file:
                      - ROOT/pool/web1: {content: "x", control: {if: "false"}, meta: {export: {tags: [pool]}}}
                """));
        await().atMost(PATIENCE).until(() -> collection("file").isEmpty());
    }

    @Test
    void aCollectorJoinsExportsLiveAndUndoesThoseThatGo() throws Exception {
        Path pool = dir.resolve("pool");
        Graph lb = compile("lb.yaml", """
                resources:
                  - file: [{ROOT/pool: {ensure: directory}}]
                collect:
                  - {kind: file, tags: [pool], allow: {paths: [ROOT/pool]}, meta: {reverse: true}}
                """);
        LiveRun collector = start("lb1", new CollectingFrom(new MemoryWorld("lb1"), web), lb);
        assertThat(collector.awaitConverged(PATIENCE.toNanos())).isTrue();
        assertThat(collector.collected()).isEmpty();

        LiveRun exporter = start("web1", web, webGraph("8080"));
        await().atMost(PATIENCE).until(() -> Files.exists(pool.resolve("web1")));
        assertThat(pool.resolve("web1")).hasContent("server 10.0.0.1:8080");
        assertThat(collector.collected()).extracting(Collected::id).containsExactly("file#" + pool.resolve("web1") + "@web1");

        exporter.swap(webGraph("9090"));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pool.resolve("web1")).hasContent("server 10.0.0.1:9090"));

        exporter.swap(compile("web.yaml", "resources: []"));
        await().atMost(PATIENCE).until(() -> !Files.exists(pool.resolve("web1")));
        assertThat(collector.collected()).isEmpty();
    }

    private List<World.Exported> collection(String kind) throws Exception {
        CompletableFuture<List<World.Exported>> first = new CompletableFuture<>();
        try (World.Registration r = web.collect(kind, first::complete)) {
            return first.get();
        }
    }

    /** A host's own World, but collecting what another World's host exports: two hosts of a fleet, in memory. */
    private record CollectingFrom(World own, World exporters) implements World {
        @Override
        public String host() {
            return own.host();
        }

        @Override
        public CompletableFuture<Optional<String>> get(Key key) {
            return own.get(key);
        }

        @Override
        public CompletableFuture<Void> put(Key key, String value) {
            return own.put(key, value);
        }

        @Override
        public CompletableFuture<Void> delete(Key key) {
            return own.delete(key);
        }

        @Override
        public Registration watch(Key key, Consumer<Optional<String>> listener) {
            return own.watch(key, listener);
        }

        @Override
        public CompletableFuture<Void> publish(String kind, String name, String content) {
            return own.publish(kind, name, content);
        }

        @Override
        public CompletableFuture<Void> withdraw(String kind, String name) {
            return own.withdraw(kind, name);
        }

        @Override
        public Registration collect(String kind, Consumer<List<Exported>> listener) {
            return exporters.collect(kind, listener);
        }
    }
}
