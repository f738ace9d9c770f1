package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
    @TempDir
    Path dir;

    private Path manifest(String yaml) {
        return new Manifests(dir).write("site.yaml", yaml);
    }

    private static final String SITE = """
            data: {greeting: hello}
            resources:
              - file:
                  - ROOT/app: {ensure: directory}
                  - ROOT/app/motd: {content: "${ data.greeting } from ${ facts.hostname }\\n", mode: "0644"}
              - exec:
                  - fail: {command: "false"}
                  - after-fail: {command: "true", require: exec#fail}
            """;

    @Test
    void applyReportsJsonWithTheDocumentedShape() {
        Path site = manifest(SITE);
        Cli cli = Cli.run("apply", site, "--output", "json", "--tmp-prefix", "--fact", "hostname=web1");
        assertThat(cli.exit()).isEqualTo(1);
        Map<String, Object> doc = Manifests.json(cli.out());
        assertThat(doc).containsKeys("host", "duration_ms").containsEntry("mode", "apply");
        assertThat(doc.get("summary")).isEqualTo(Map.of("total", 4, "changed", 2, "stable", 0, "failed", 1, "skipped", 1,
                "unresolvable", 0, "would_fail", 0, "refreshed", 0));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> resources = (List<Map<String, Object>>) doc.get("resources");
        assertThat(resources).extracting(r -> r.get("id")).containsExactly(
                "file#" + dir + "/app", "file#" + dir + "/app/motd", "exec#fail", "exec#after-fail");
        assertThat(resources.get(1)).containsEntry("status", "changed").containsEntry("changes", List.of("ensure", "content"))
                .containsEntry("refreshed", false).containsKeys("message", "error", "duration_ms");
        assertThat(resources.get(2)).containsEntry("status", "failed").containsEntry("error", "'false' exited with 1 (expected 0)");
        assertThat(resources.get(3)).containsEntry("status", "skipped").containsEntry("message", "dependency exec#fail failed");
        assertThat(dir.resolve("app/motd")).hasContent("hello from web1");
    }

    @Test
    void detailedExitCodesAndTextLines() throws Exception {
        Path site = manifest("""
                resources:
                  - file: [{ROOT/a: {content: "a\\n", mode: "0600"}}]
                """);
        Cli first = Cli.run("apply", site, "--detailed-exitcodes", "--tmp-prefix");
        assertThat(first.exit()).isEqualTo(2);
        assertThat(first.out()).containsPattern("(?m)^file#" + dir + "/a changed ensure,content \\d+ms$")
                .contains("changed 1, stable 0, failed 0, skipped 0, unresolvable 0, refreshed 0");
        assertThat(Cli.run("apply", site, "--detailed-exitcodes", "--tmp-prefix").exit()).isZero();
        assertThat(Cli.run("apply", site, "--tmp-prefix").exit()).isZero();

        Files.writeString(dir.resolve("a"), "b\n");
        Cli plan = Cli.run("plan", site, "--tmp-prefix");
        assertThat(plan.exit()).isEqualTo(2);
        assertThat(plan.out()).contains("-b\n", "+a\n").startsWith("file#" + dir + "/a changed content");
        assertThat(dir.resolve("a")).hasContent("b");
        Files.setPosixFilePermissions(dir.resolve("a"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(Cli.run("plan", site, "--tmp-prefix").out()).contains("    mode 0644 -> 0600\n");
    }

    @Test
    void planExitsFourOnErrorsAndSixWithChangesToo() {
        assertThat(Cli.run("plan", manifest("resources: [{exec: [{x: {command: \"/nonexistent/cmd\", onlyif: \"/nonexistent/guard\"}}]}]\n"), "--tmp-prefix").exit()).isEqualTo(4);
        assertThat(Cli.run("plan", manifest(SITE), "--tmp-prefix").exit()).isEqualTo(2);
        Path both = manifest("""
                resources:
                  - file: [{ROOT/new: {content: x}}]
                  - exec: [{x: {command: "true", onlyif: "/nonexistent/guard"}}]
                """);
        assertThat(Cli.run("plan", both, "--tmp-prefix").exit()).isEqualTo(6);
    }

    @Test
    void applyWithDiffShowsTheDiff() throws Exception {
        Files.writeString(dir.resolve("d"), "old\n");
        Cli cli = Cli.run("apply", manifest("resources: [{file: [{ROOT/d: {content: \"new\\n\"}}]}]\n"), "--diff", "--tmp-prefix");
        assertThat(cli.out()).contains("-old\n", "+new\n");
        assertThat(dir.resolve("d")).hasContent("new");
    }

    @Test
    void planPrintsAPatchThatPatchAndGitApplyTake() throws Exception {
        Path site = manifest("""
                resources:
                  - file:
                      - ROOT/changed: {content: "one\\nTWO\\nthree\\n", mode: "0644"}
                      - ROOT/new: {content: "no final newline", mode: "0644"}
                      - ROOT/emptied: {content: "", mode: "0644"}
                """);
        for (List<String> tool : List.of(List.of("patch", "-p1", "--batch"), List.of("git", "apply", "-p1", "-"))) {
            Files.writeString(dir.resolve("changed"), "one\ntwo\nthree\n");
            Files.writeString(dir.resolve("emptied"), "all\nof\nit");
            Files.deleteIfExists(dir.resolve("new"));
            for (Path file : List.of(dir.resolve("changed"), dir.resolve("emptied"))) {
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            }
            Cli plan = Cli.run("plan", site, "--tmp-prefix");
            assertThat(plan.exit()).isEqualTo(2);

            Path patch = Files.writeString(dir.resolve("plan.out"), plan.out());
            ProcessBuilder applying = new ProcessBuilder(tool).directory(Path.of("/").toFile()).redirectInput(patch.toFile())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("tool.out").toFile());
            applying.environment().put("GIT_CEILING_DIRECTORIES", "/");
            assertThat(applying.start().waitFor()).as("%s on\n%s%s", tool, plan.out(), Files.readString(dir.resolve("tool.out"))).isZero();

            assertThat(Files.readString(dir.resolve("changed"))).isEqualTo("one\nTWO\nthree\n");
            assertThat(Files.readString(dir.resolve("new"))).isEqualTo("no final newline");
            assertThat(Files.readString(dir.resolve("emptied"))).isEmpty();
            assertThat(Cli.run("apply", site, "--tmp-prefix", "--detailed-exitcodes").exit()).as("nothing left to do").isZero();
        }
    }

    @Test
    void dataFactsAndFactsFile() throws Exception {
        Path facts = dir.resolve("facts.json");
        Files.writeString(facts, "{\"os\": {\"family\": \"redhat\"}, \"role\": \"db\"}");
        Path site = manifest("""
                data: {port: 80}
                resources:
                  - file: [{ROOT/out: {content: "${ data.port + 1 } ${ data.name } ${ facts.os.family } ${ facts.role } ${ facts.env }"}}]
                """);
        Cli cli = Cli.run("apply", site, "--data", "port=8080", "--data", "name=web", "--facts", facts, "--fact", "env=prod", "--tmp-prefix");
        assertThat(cli.err()).isEmpty();
        assertThat(dir.resolve("out")).hasContent("8081 web redhat db prod");
    }

    @Test
    @SuppressWarnings("unchecked")
    void validateAndGraph() {
        Path site = manifest(SITE);
        Cli validate = Cli.run("validate", site);
        assertThat(validate.exit()).isZero();
        assertThat(validate.out()).isEqualTo(site + ": ok, 4 resources, 2 edges\n");
        Cli dot = Cli.run("graph", site);
        assertThat(dot.out()).startsWith("digraph muster {")
                .contains("\"file#" + dir + "/app\" -> \"file#" + dir + "/app/motd\" [label=\"autoedge\"];")
                .contains("\"exec#fail\" -> \"exec#after-fail\" [label=\"require\"];");
        Map<String, Object> json = Manifests.json(Cli.run("graph", site, "--format", "json").out());
        assertThat((List<Object>) json.get("edges")).contains(Map.of("from", "exec#fail", "to", "exec#after-fail", "reason", "require"));
        assertThat((List<Object>) json.get("vertices")).hasSize(4);
    }

    @Test
    void usageErrorsAreNotConfusedWithDetailedExitCodes() {
        Cli cli = Cli.run("apply", manifest(SITE), "--output", "yaml");
        assertThat(cli.exit()).isEqualTo(64);
        assertThat(cli.err()).contains("--output").contains("Try 'muster apply --help'.");
        assertThat(Cli.run("apply").exit()).isEqualTo(64);
        assertThat(Cli.run("apply", manifest(SITE), "--sema", "0").exit()).isEqualTo(64);
        Cli missing = Cli.run("validate", dir.resolve("nope.yaml"));
        assertThat(missing.err()).isEqualTo(dir.resolve("nope.yaml") + ":1:1: file not found\n");
        assertThat(missing.exit()).isEqualTo(1);
    }

    @Test
    void semaOneStillRunsEverything() {
        Path site = manifest("""
                resources:
                  - exec:
                      - a: {command: "true"}
                      - b: {command: "true"}
                      - c: {command: "true"}
                """);
        assertThat(Cli.run("apply", site, "--sema", "1", "--tmp-prefix", "--detailed-exitcodes").exit()).isEqualTo(2);
    }

    @Test
    void helpListsEveryCommandEvenThoughOnlyTheInvokedOneIsBuilt() {
        assertThat(Cli.run("--help").out()).contains("apply", "plan", "validate", "graph", "help");
        assertThat(Cli.run("help", "plan").out()).startsWith("Usage: muster plan");
        assertThat(Cli.run("--version").out()).startsWith("muster ");
        Cli unknown = Cli.run("aply");
        assertThat(unknown.exit()).isEqualTo(64);
        assertThat(unknown.err()).contains("Try 'muster --help'.");
    }

    @Test
    void aMistypedCommandOrOptionGetsASuggestion() {
        Cli command = Cli.run("aply", "x.yaml");
        assertThat(command.exit()).isEqualTo(64);
        assertThat(command.err()).isEqualTo("""
                muster: Unmatched arguments from index 0: 'aply', 'x.yaml'
                Did you mean: muster apply?
                Try 'muster --help'.
                """);
        Cli option = Cli.run("apply", manifest(SITE), "--detailed-exitcode");
        assertThat(option.exit()).isEqualTo(64);
        assertThat(option.err()).contains("Unknown option: '--detailed-exitcode'", "--detailed-exitcodes", "Try 'muster apply --help'.");
    }

    @Test
    void everyCommandsHelpEndsWithExamplesAndListsEachOptionOnce() {
        for (String command : List.of("apply", "run", "plan", "check", "validate", "graph")) {
            String help = Cli.run(command, "--help").out();
            assertThat(help).as(command).containsPattern("\\nExamples:\\n  muster " + command + " site.yaml ").endsWith("\n");
            assertThat(help.lines().filter(line -> line.matches(" +--debug .*"))).as(command).hasSize(1);
        }
        for (String command : List.of("apply", "run", "plan", "check")) {
            String help = Cli.run(command, "--help").out();
            assertThat(help.lines().filter(line -> line.matches(" +--tmp-prefix .*"))).as(command).hasSize(1);
            assertThat(help.lines().filter(line -> line.matches(" +--prefix=DIR .*"))).as(command).hasSize(1);
        }
        assertThat(Cli.run("--help").out()).contains("Examples:\n  muster validate site.yaml");
        for (String command : List.of("agent", "coordinator", "deploy", "deploys", "rollback", "status", "exports")) {
            assertThat(Cli.run(command, "--help").out()).as(command).containsPattern("\nExamples:\n  muster " + command + "[ \n]").endsWith("\n");
        }
    }
}
