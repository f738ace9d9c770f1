package io.muster.engine.resource.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
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
}
