package io.muster.engine.resource.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.testing.CountingWatcher;
import io.muster.engine.testing.Manifests;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.Resource;
import io.muster.engine.world.MemoryWorld;
import io.muster.engine.world.World;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mgmt's {@code kv}: sets or deletes a key of the World; {@code skiplessthan} keeps a greater value. */
class KvKindTest {
    @TempDir
    Path dir;

    @Test
    void aValueIsSetAGreaterOneKeptAndAMissingOneDeleted() throws Exception {
        Report report = new Manifests(dir).apply("""
                graph: stages
                resources:
                  kv:
                  - {name: high, key: stage, value: 3}
                  - {name: low, key: stage, value: "1", skiplessthan: true}
                  - {name: text, key: word, value: b}
                  - {name: lower, key: word, value: a, skiplessthan: true, skipcmpstyle: 1}
                  - {name: nothing, key: neverset}
                  - {name: again, key: stage, value: "3"}
                edges:
                - {from: {kind: kv, name: high}, to: {kind: kv, name: low}}
                - {from: {kind: kv, name: low}, to: {kind: kv, name: again}}
                - {from: {kind: kv, name: text}, to: {kind: kv, name: lower}}
                """);
        assertThat(Manifests.resource(report, "kv#high").status()).isEqualTo(Status.CHANGED);
        assertThat(Manifests.resource(report, "kv#low").status()).isEqualTo(Status.STABLE);
        assertThat(Manifests.resource(report, "kv#again").status()).isEqualTo(Status.STABLE);
        assertThat(Manifests.resource(report, "kv#lower").status()).isEqualTo(Status.STABLE);
        assertThat(Manifests.resource(report, "kv#nothing").status()).isEqualTo(Status.STABLE);
    }

    @Test
    void withoutSkiplessthanTheLaterValueWins() throws Exception {
        Report report = new Manifests(dir).apply("""
                graph: stages
                resources:
                  kv: [{name: one, key: stage, value: "5"}, {name: two, key: stage, value: "2"}, {name: gone, key: stage}]
                edges:
                - {from: {kind: kv, name: one}, to: {kind: kv, name: two}}
                - {from: {kind: kv, name: two}, to: {kind: kv, name: gone}}
                """);
        assertThat(Manifests.resource(report, "kv#two").changes()).extracting(c -> c.describe()).containsExactly("value 5 -> 2");
        assertThat(Manifests.resource(report, "kv#gone").changes()).extracting(c -> c.describe()).containsExactly("value 2 -> absent");
    }

    @Test
    void underRunAChangeOfTheKeyHasItCheckedAgain() throws Exception {
        MemoryWorld world = new MemoryWorld("testhost");
        KvKind kind = new KvKind();
        Resource kv = kind.create(new Params("stage", Map.of("value", "2"), dir));
        CountingWatcher watcher = new CountingWatcher(new KvKind.KvSession(world));
        AtomicInteger checks = watcher.changes();
        Thread watch = Thread.ofVirtual().start(() -> {
            try {
                kv.watch(watcher);
            } catch (Exception e) {
                // interrupted: the watch ends
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() >= 1); // the state it starts from
        int before = checks.get();
        world.put(World.Key.shared("stage"), "7").get();
        await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() > before);
        watch.interrupt();
    }
}
