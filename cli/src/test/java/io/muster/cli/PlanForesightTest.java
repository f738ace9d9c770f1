package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan} foresees what it cheaply can of the apply failing: a directory that does not exist and that nothing
 * before the resource makes, a program not on the PATH, a user or group that does not exist: failures to come,
 * not changes.
 */
class PlanForesightTest {
    @TempDir
    Path dir;

    @Test
    void planCountsWhatWouldFailApartFromWhatWouldChange() {
        Path site = new Manifests(dir).write("site.yaml", """
                resources:
                  - file:
                      - ROOT/nodir/x: {content: "x"}
                      - ROOT/made/y: {content: "y"}
                      - ROOT/made: {ensure: directory}
                      - ROOT/fine: {content: "fine"}
                  - exec:
                      - missing: {command: "nosuch-program --flag"}
                      - nobody-here: {command: "true", user: no-such-user-here}
                      - installs: {command: "true"}
                      - installed: {command: "nosuch-program", require: "exec#installs"}
                """);

        Cli plan = Cli.run("plan", site, "--tmp-prefix");

        assertThat(plan.exit()).as("changes and failures").isEqualTo(6);
        assertThat(plan.out())
                .contains("file#" + dir + "/nodir/x would fail ensure,content: its directory " + dir + "/nodir does not exist, and nothing before it "
                        + "in the manifest makes it\n")
                .contains("exec#missing would fail executed: cannot run 'nosuch-program --flag': not found in PATH (PATH=" + System.getenv("PATH") + ")\n")
                .containsPattern("(?m)^exec#installed changed executed \\d+ms$")
                .containsPattern("(?m)^file#" + dir + "/made/y changed ensure,content \\d+ms$")
                .contains("  changed 5, would fail 3, stable 0, failed 0,");
        assertThat(plan.out()).containsPattern("(?m)^exec#nobody-here would fail executed: .*user 'no-such-user-here' does not exist on this host$");

        Cli json = Cli.run("plan", site, "--tmp-prefix", "--output", "json");
        ReportSchema.assertValid(json.out());
        Map<String, Object> doc = Manifests.json(json.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> summary = (Map<String, Object>) doc.get("summary");
        assertThat(summary).containsEntry("changed", 5).containsEntry("would_fail", 3).containsEntry("failed", 0);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> resources = (List<Map<String, Object>>) doc.get("resources");
        assertThat(resources).filteredOn(r -> r.get("id").equals("exec#missing")).singleElement().satisfies(r -> assertThat(r)
                .containsEntry("status", "would_fail").containsEntry("error", null).containsEntry("changes", List.of("executed"))
                .extractingByKey("message").asString().startsWith("cannot run 'nosuch-program --flag': not found in PATH"));

        Cli apply = Cli.run("apply", site, "--tmp-prefix");
        assertThat(apply.out()).as("as foreseen, and the program the exec before it might have installed fails too")
                .contains("changed 4, stable 0, failed 4,");
    }
}
