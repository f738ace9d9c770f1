package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --output json} as a script reads it: every document carries {@code "schema": 1} and is valid under the
 * published schema (docs/schema/report-1.json); apply and plan carry each change's values and diff.
 */
class JsonReportsTest {
    @TempDir
    Path dir;

    @Test
    void planAndApplyCarryEachChangesBeforeAndAfterValuesAndItsDiff() throws Exception {
        Path motd = dir.resolve("motd");
        Files.writeString(motd, "old\n");
        Files.setPosixFilePermissions(motd, PosixFilePermissions.fromString("rw-------"));
        Path site = manifest("""
                resources:
                  - file:
                      - ROOT/motd: {content: "new\\n", mode: "0644"}
                      - ROOT/secret: {content: "s3cr3t\\n", sensitive: true}
                """);

        Cli plan = Cli.run("plan", site, "--tmp-prefix", "--output", "json");
        assertThat(plan.exit()).isEqualTo(2);
        ReportSchema.assertValid(plan.out());
        Map<String, Object> doc = Manifests.json(plan.out());
        assertThat(doc).containsEntry("schema", 1).containsEntry("mode", "noop");
        List<Map<String, Object>> details = details(doc, "file#" + motd);
        assertThat(details).extracting(d -> d.get("attribute")).containsExactly("content", "mode");
        assertThat(details.get(0).get("diff")).isEqualTo("""
                --- a%1$s
                +++ b%1$s
                @@ -1 +1 @@
                -old
                +new
                """.formatted(motd));
        assertThat(details.get(1)).containsEntry("before", "0600").containsEntry("after", "0644").containsEntry("diff", null);
        assertThat(details(doc, "file#" + dir.resolve("secret")))
                .anySatisfy(d -> assertThat(d).containsEntry("attribute", "content")
                        .containsEntry("diff", "content differs (sensitive: diff redacted)\n"))
                .allSatisfy(d -> assertThat(String.valueOf(d)).doesNotContain("s3cr3t"));

        Cli apply = Cli.run("apply", site, "--tmp-prefix", "--output", "json", "--diff");
        assertThat(apply.exit()).isZero();
        ReportSchema.assertValid(apply.out());
        assertThat(details(Manifests.json(apply.out()), "file#" + motd).get(0).get("diff").toString()).contains("-old\n+new\n");
        assertThat(motd).hasContent("new");

        Cli again = Cli.run("apply", site, "--tmp-prefix", "--output", "json");
        ReportSchema.assertValid(again.out());
        assertThat(details(Manifests.json(again.out()), "file#" + motd)).isEmpty();
    }

    @Test
    void checkAndAFailedApplyAreValidReportsToo() {
        Path site = manifest("""
                resources:
                  - exec: [{broken: {command: "false"}}, {after: {command: "true", require: "exec#broken"}}]
                  - noop: [{web: {health_checks: [{command: "exit 1", name: warn}]}}]
                """);
        Cli apply = Cli.run("apply", site, "--tmp-prefix", "--output", "json");
        assertThat(apply.exit()).isEqualTo(1);
        ReportSchema.assertValid(apply.out());
        Cli check = Cli.run("check", site, "--tmp-prefix", "--output", "json");
        ReportSchema.assertValid(check.out());
        assertThat(Manifests.json(check.out())).containsEntry("schema", 1).containsEntry("mode", "check");
    }

    @Test
    void runsReportIsValid() throws Exception {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                  - exec: [{broken: {command: "false"}}]
                """);
        try (MusterProcess run = MusterProcess.start(dir, "run", "run", site, "--tmp-prefix", "--converged-timeout", 0, "--output", "json")) {
            assertThat(run.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            ReportSchema.assertValid(run.out());
            assertThat(Manifests.json(run.out())).containsEntry("schema", 1).containsEntry("mode", "run");
        }
    }

    @Test
    void validateOutputJsonListsEachProblemWithItsPlace() throws IOException {
        Path bad = manifest("""
                resources:
                  - file:
                      - ROOT/a: {mdoe: "0644"}
                  - exec: [{x: {command: "true", require: "file#nowhere"}}]
                """);
        Cli invalid = Cli.run("validate", bad, "--output", "json");
        assertThat(invalid.exit()).isEqualTo(1);
        assertThat(invalid.err()).isEmpty();
        ReportSchema.assertValid(invalid.out());
        Map<String, Object> doc = Manifests.json(invalid.out());
        assertThat(doc).containsEntry("schema", 1).containsEntry("ok", false);
        assertThat(list(doc, "problems")).first().satisfies(p -> assertThat(p)
                .containsEntry("file", bad.toString()).containsEntry("line", 3).containsEntry("column", column(bad, 3, "mdoe"))
                .containsEntry("message", "file#" + dir.resolve("a") + ": unknown property 'mdoe' (did you mean 'mode'?)"));

        Path good = manifest("resources: [{file: [{ROOT/a: {content: \"a\\n\"}}]}]\n");
        Cli valid = Cli.run("validate", good, "--output", "json");
        assertThat(valid.exit()).isZero();
        ReportSchema.assertValid(valid.out());
        assertThat(Manifests.json(valid.out())).containsEntry("ok", true).containsEntry("resources", 1).containsEntry("problems", List.of());
    }

    /** The column, counted from 1, where {@code word} starts on line {@code line} of {@code file}. */
    private static int column(Path file, int line, String word) throws IOException {
        return Files.readAllLines(file).get(line - 1).indexOf(word) + 1;
    }

    private Path manifest(String yaml) {
        return new Manifests(dir).write("site.yaml", yaml);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> doc, String key) {
        return (List<Map<String, Object>>) doc.get(key);
    }

    private static List<Map<String, Object>> details(Map<String, Object> doc, String id) {
        Map<String, Object> resource = list(doc, "resources").stream().filter(r -> id.equals(r.get("id"))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id + " in " + doc));
        return list(resource, "details");
    }
}
