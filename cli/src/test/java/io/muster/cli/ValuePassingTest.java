package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.security.MessageDigest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lookup('kind#name.field')} in its three phases: declared, check (read-only) and apply (effect) values. */
class ValuePassingTest {
    @TempDir
    Path dir;

    private Path write(String yaml) {
        return new Manifests(dir).write("site.yaml", yaml);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> entry(Cli run, String id) {
        List<Map<String, Object>> resources = (List<Map<String, Object>>) Manifests.json(run.out()).get("resources");
        return resources.stream().filter(r -> r.get("id").equals(id)).findFirst().orElseThrow();
    }

    private static final String THREE_PHASES = """
            resources:
              - file: [{ROOT/declared: {content: "from a parameter"}}]
              - exec:
                  - query: {command: "echo read-only", query: true}
                  - effect: {command: "echo effect", creates: ROOT/never}
              - file:
                  - ROOT/compile: {content: "{{ lookup('file#ROOT/declared.content') }}"}
                  - ROOT/check: {content: "{{ lookup('exec#query.stdout') }} {{ lookup('file#ROOT/declared.sha256') }}"}
                  - ROOT/apply: {content: "{{ lookup('exec#effect.stdout') }}"}
            """;

    @Test
    void planResolvesDeclaredAndCheckValuesAndMarksEffectConsumersUnresolvable() throws Exception {
        Path site = write(THREE_PHASES);
        Cli plan = Cli.run("plan", site, "--tmp-prefix");
        assertThat(plan.exit()).isEqualTo(2);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest("from a parameter".getBytes()));
        assertThat(plan.out()).contains("+from a parameter", "+read-only " + sha)
                .contains("file#" + dir + "/apply unresolvable: needs exec#effect.stdout, which only an apply of exec#effect produces");
        assertThat(List.of(plan.out().split("\n"))).last().isEqualTo("1 resource(s) depend on effectful results and may change");
        assertThat(dir.resolve("check")).doesNotExist();

        Cli json = Cli.run("plan", site, "--tmp-prefix", "--output", "json");
        assertThat((Map<String, Object>) Manifests.json(json.out()).get("summary")).containsEntry("unresolvable", 1);
        assertThat(entry(json, "exec#query")).containsEntry("status", "stable");

        Cli apply = Cli.run("apply", site, "--tmp-prefix");
        assertThat(apply.exit()).as(apply.out()).isZero();
        assertThat(dir.resolve("compile")).hasContent("from a parameter");
        assertThat(dir.resolve("check")).hasContent("read-only " + sha);
        assertThat(dir.resolve("apply")).hasContent("effect");
    }

    @Test
    void aFilesSha256IsItsCurrentContentWhenTheManifestDoesNotManageIt() throws Exception {
        Files.writeString(dir.resolve("existing"), "as found");
        Path site = write("""
                resources:
                  - file: [{ROOT/existing: {}}]
                  - file: [{ROOT/sum: {content: "{{ lookup('file#ROOT/existing.sha256') }}"}}]
                """);
        Cli plan = Cli.run("plan", site, "--tmp-prefix");
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest("as found".getBytes()));
        assertThat(plan.out()).contains("+" + sha);
    }

    @Test
    void aConsumerOfAFailedProducerIsSkippedNamingIt() {
        Path site = write("""
                resources:
                  - exec: [{broken: {command: "false", query: true}}]
                  - file: [{ROOT/out: {content: "{{ lookup('exec#broken.stdout') }}"}}]
                """);
        Cli plan = Cli.run("plan", site, "--tmp-prefix", "--output", "json");
        assertThat(entry(plan, "file#" + dir + "/out")).containsEntry("status", "skipped")
                .containsEntry("message", "dependency exec#broken failed");
    }

    @Test
    void aQueryChangesNothingAndCannotBeRefreshonly() {
        Path site = write("""
                resources:
                  - exec: [{q: {command: "touch ROOT/touched", query: true}}]
                """);
        Cli apply = Cli.run("apply", site, "--tmp-prefix", "--detailed-exitcodes");
        assertThat(apply.exit()).as("a query is never a change").isZero();
        Cli bad = Cli.run("validate", write("resources: [{exec: [{q: {command: \"true\", query: true, refreshonly: true}}]}]\n"));
        assertThat(bad.err()).endsWith("exec#q: refreshonly: a query runs on every check; it cannot also be refreshonly\n");
    }

    @Test
    void aMissingResourceOrFieldIsACompileErrorAndGraphLabelsValueEdges() {
        Path missing = write("""
                resources:
                  - exec: [{e: {command: "true"}}]
                  - file: [{ROOT/a: {content: "{{ lookup('exec#e.stdot') }}"}}]
                """);
        assertThat(Cli.run("validate", missing).err()).startsWith(missing + ":3:").contains("lookup('exec#e.stdot'): exec#e has no field 'stdot' (did you mean 'stdout'?)");
        Path site = write("""
                resources:
                  - exec: [{e: {command: "true"}}]
                  - file: [{ROOT/a: {content: "{{ lookup('exec#e.stdout') }}"}}]
                """);
        assertThat(Cli.run("graph", site).out()).contains("\"exec#e\" -> \"file#" + dir + "/a\" [label=\"lookup\", style=dashed];");
    }

    @Test
    void lookupsCrossManifestBoundaries() {
        Manifests m = new Manifests(dir);
        m.write("lib/child.yaml", """
                resources:
                  - file: [{ROOT/child: {content: "{{ lookup('exec#parent.stdout') }}"}}]
                """);
        Path site = write("""
                resources:
                  - exec: [{parent: {command: "echo from the parent"}}]
                  - apply: [lib/child.yaml]
                """);
        assertThat(Cli.run("apply", site, "--tmp-prefix").exit()).isZero();
        assertThat(dir.resolve("child")).hasContent("from the parent");
    }
}
