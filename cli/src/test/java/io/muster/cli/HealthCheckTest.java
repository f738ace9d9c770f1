package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code health_checks}, {@code muster check} and {@code apply --health-check-only}. */
class HealthCheckTest {
    @TempDir
    Path dir;

    private Path write(String name, String yaml) {
        return new Manifests(dir).write(name, yaml);
    }

    private static final String FOUR_OUTCOMES = """
            resources:
              - noop:
                  - a: {health_checks: [{name: fine, command: "echo all good"}]}
                  - b: {health_checks: [{name: meh, command: "echo disk 91%; exit 1"}]}
                  - c: {health_checks: [{name: down, command: "echo refused; exit 2"}]}
                  - d: {health_checks: [{name: odd, command: "exit 3"}]}
                  - e: {health_checks: [{command: "/nonexistent/check"}]}
            """;

    @Test
    void checkReportsEachNagiosOutcomeAndCountsThem() {
        Cli check = Cli.run("check", write("site.yaml", FOUR_OUTCOMES), "--tmp-prefix");
        assertThat(check.exit()).isEqualTo(1);
        assertThat(check.out()).contains(
                "noop#a health check 'fine' ok: all good\n",
                "noop#b health check 'meh' warning: disk 91%\n",
                "noop#c health check 'down' critical: refused\n",
                "noop#d health check 'odd' unknown\n",
                "noop#e health check '/nonexistent/check' unknown: ",
                "noop#b failed ",
                "check on vm",
                "  health checks: ok 1, warning 1, critical 1, unknown 2\n");
        @SuppressWarnings("unchecked")
        Map<String, Object> counts = (Map<String, Object>) Manifests.json(
                Cli.run("check", write("site.yaml", FOUR_OUTCOMES), "--tmp-prefix", "--output", "json").out()).get("health_checks");
        assertThat(counts).isEqualTo(Map.of("ok", 1, "warning", 1, "critical", 1, "unknown", 2));
        assertThat(Cli.run("check", write("ok.yaml", "resources: [{noop: [{a: {health_checks: [{command: \"true\"}]}}]}]\n"),
                "--tmp-prefix").exit()).isZero();
    }

    @Test
    void gossRulesCheckTheSystemInANativeManifestAndInACcmOne() throws Exception {
        Files.writeString(dir.resolve("app.conf"), "port 8080\n");
        Cli nativeCheck = Cli.run("check", write("native.yaml", """
                resources:
                  - noop:
                      - app:
                          health_checks:
                            - goss:
                                file: {ROOT/app.conf: {exists: true, contents: ["port 8080"]}}
                                command: {"echo ok": {exit-status: 0, stdout: [ok]}}
                      - broken:
                          health_checks:
                            - name: config
                              goss: {file: {ROOT/app.conf: {contents: ["port 9090"]}, ROOT/missing: {exists: true}}}
                """), "--tmp-prefix");
        assertThat(nativeCheck.out()).contains("noop#app health check 'goss' ok: goss: 4 passed\n",
                "noop#broken health check 'config' critical: goss: 2 of 2 failed: file " + dir.resolve("app.conf")
                        + ": contents: patterns not found: [\"port 9090\"]; file " + dir.resolve("missing")
                        + ": exists: expected true, got false\n");
        assertThat(nativeCheck.exit()).isEqualTo(1);

        Path ccm = dir.resolve("ccm.yaml");
        Files.writeString(ccm, """
                data: {port: 8080}
                ccm:
                  resources:
                    - file:
                        - CONF:
                            ensure: present
                            owner: root
                            group: root
                            mode: "0644"
                            content: "port {{ Data.port }}\\n"
                            health_checks:
                              - goss_rules:
                                  file:
                                    CONF:
                                      exists: true
                                      mode: "0644"
                                      contents: ["port {{ Data.port }}"]
                """.replace("CONF", dir.resolve("ccm.conf").toString()));
        Cli apply = Cli.run("apply", ccm, "--tmp-prefix");
        assertThat(apply.out()).contains("health check '.' ok: goss: 3 passed");
        assertThat(Files.readString(dir.resolve("ccm.conf"))).isEqualTo("port 8080\n");
    }

    @Test
    void gossRulesGossWouldNotReadAreRefusedWhereWritten() {
        Cli validate = Cli.run("validate", write("bad.yaml", """
                resources:
                  - noop:
                      - a: {health_checks: [{goss: {file: {/etc/hosts: {exist: true}}}}]}
                      - b: {health_checks: [{goss: {files: {}}, command: "true"}]}
                """));
        assertThat(validate.exit()).isNotZero();
        assertThat(validate.err()).contains("bad.yaml:3:", "noop#a: health_checks: ", "unknown attribute 'exist'",
                "bad.yaml:4:", "noop#b: health_checks: command and goss: one or the other, not both");
    }

    @Test
    void aCheckIsTriedUntilItPassesOrItsTriesRunOut() throws Exception {
        String yaml = """
                resources:
                  - noop:
                      - flaky:
                          health_checks:
                            - name: third time
                              command: "echo x >> ROOT/tries; test $(wc -l < ROOT/tries) -ge 3 || exit 2"
                              tries: TRIES
                              try_sleep: 0.05
                """;
        Cli enough = Cli.run("check", write("enough.yaml", yaml.replace("TRIES", "3")), "--tmp-prefix");
        assertThat(enough.out()).contains("noop#flaky health check 'third time' ok after 3 tries");
        assertThat(enough.exit()).isZero();
        Files.delete(dir.resolve("tries"));
        Cli tooFew = Cli.run("check", write("few.yaml", yaml.replace("TRIES", "2")), "--tmp-prefix");
        assertThat(tooFew.out()).contains("noop#flaky health check 'third time' critical after 2 tries");
        assertThat(Files.readAllLines(dir.resolve("tries"))).hasSize(2);
    }

    @Test
    void aSlowCheckTimesOutAsCritical() {
        Cli check = Cli.run("check", write("slow.yaml", "resources: [{noop: [{s: {health_checks: [{command: \"sleep 5\", timeout: 0.2}]}}]}]\n"),
                "--tmp-prefix");
        assertThat(check.out()).contains("noop#s health check 'sleep 5' critical: 'sleep 5' timed out after 0.2s and was killed");
    }

    @Test
    void healthCheckOnlyChangesNothingAndCannotBeCombinedWithNoop() {
        Path site = write("site.yaml", """
                resources:
                  - file: [{ROOT/managed: {content: x, health_checks: [{command: "test -e ROOT/managed"}]}}]
                  - exec: [{never: {command: "touch ROOT/ran"}}]
                """);
        Cli only = Cli.run("apply", site, "--health-check-only", "--tmp-prefix");
        assertThat(only.out()).contains("health check 'test -e " + dir + "/managed' warning", "health checks: ok 0, warning 1, critical 0, unknown 0");
        assertThat(dir.resolve("managed")).doesNotExist();
        assertThat(dir.resolve("ran")).doesNotExist();

        Cli both = Cli.run("apply", site, "--health-check-only", "--noop");
        assertThat(both.exit()).isEqualTo(64);
        assertThat(both.err()).contains("--noop and --health-check-only cannot be combined");
    }

    @Test
    void whenApplyingAFailingCheckFailsItsResourceAfterConvergingAndNoopRunsNoChecks() {
        Path site = write("site.yaml", """
                resources:
                  - file: [{ROOT/conf: {content: x, health_checks: [{name: never, command: "exit 2"}]}}]
                  - file: [{ROOT/after: {content: x, require: "file#ROOT/conf"}}]
                """);
        Cli plan = Cli.run("plan", site, "--tmp-prefix");
        assertThat(plan.out()).doesNotContain("health check");
        Cli apply = Cli.run("apply", site, "--tmp-prefix", "--output", "json");
        assertThat(apply.exit()).isEqualTo(1);
        assertThat(dir.resolve("conf")).exists();
        assertThat(dir.resolve("after")).doesNotExist();
        @SuppressWarnings("unchecked")
        Map<String, Object> conf = ((List<Map<String, Object>>) Manifests.json(apply.out()).get("resources")).get(0);
        assertThat(conf).containsEntry("status", "failed").containsEntry("error", "health check 'never' critical")
                .containsEntry("health_checks", List.of(Map.of("name", "never", "status", "critical", "output", "", "tries", 1)));
    }

    @Test
    void aChildCanAskForHealthChecksOnlyWhileItsParentApplies() {
        write("lib/child.yaml", """
                resources:
                  - file: [{ROOT/child: {content: x, health_checks: [{command: "true"}]}}]
                """);
        Path site = write("site.yaml", """
                resources:
                  - apply: [{lib/child.yaml: {health_check_only: true}}]
                  - file: [{ROOT/parent: {content: x}}]
                """);
        Cli run = Cli.run("apply", site, "--tmp-prefix");
        assertThat(run.out()).contains("file#" + dir + "/child health check 'true' ok [lib/child.yaml]");
        assertThat(dir.resolve("child")).doesNotExist();
        assertThat(dir.resolve("parent")).exists();
    }
}
