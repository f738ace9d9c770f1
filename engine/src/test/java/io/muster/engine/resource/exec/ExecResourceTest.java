package io.muster.engine.resource.exec;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecResourceTest {
    @TempDir
    Path dir;

    private Report apply(String yaml) throws Exception {
        return new Manifests(dir).apply(yaml);
    }

    @Test
    void runsWithoutAShellAndPassesStdoutOn() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - greet: {command: ["printf", "%s\\n", "a b; c"]}
                  - file:
                      - ROOT/out: {content: "{{ lookup('exec#greet.stdout') }}|${ lookup('exec#greet.exit_code') }"}
                """);
        assertThat(resource(report, "exec#greet").status()).isEqualTo(Status.CHANGED);
        assertThat(Files.readString(dir.resolve("out"))).isEqualTo("a b; c|0");
    }

    @Test
    void guardsDecideWhetherTheCommandRuns() throws Exception {
        Files.writeString(dir.resolve("exists"), "");
        Report report = apply("""
                resources:
                  - exec:
                      - created: {command: "touch ROOT/c1", creates: ROOT/exists}
                      - onlyif-false: {command: "touch ROOT/c2", onlyif: "false"}
                      - unless-true: {command: "touch ROOT/c3", unless: "test -e ROOT/exists"}
                      - runs: {command: "touch ROOT/c4", onlyif: "true", unless: "false"}
                      - refresh-only: {command: "touch ROOT/c5", refreshonly: true}
                """);
        assertThat(report.count(Status.STABLE)).isEqualTo(4);
        assertThat(resource(report, "exec#runs").status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("c4")).exists();
        assertThat(List.of("c1", "c2", "c3", "c5")).allSatisfy(f -> assertThat(dir.resolve(f)).doesNotExist());
    }

    @Test
    void failuresNameTheExitCodeAndStderr() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - bad: {command: "echo broken >&2; exit 3", shell: true}
                      - allowed: {command: "exit 3", shell: true, returns: [0, 3]}
                      - slow: {command: "sleep 5", timeout: 0.2}
                      - missing: {command: "no-such-program-here"}
                """);
        assertThat(resource(report, "exec#bad").error()).isEqualTo("'echo broken >&2; exit 3' exited with 3 (expected 0): broken");
        assertThat(resource(report, "exec#allowed").status()).isEqualTo(Status.CHANGED);
        assertThat(resource(report, "exec#slow").error()).isEqualTo("'sleep 5' timed out after 0.2s and was killed");
        assertThat(resource(report, "exec#missing").error()).startsWith("cannot run 'no-such-program-here'");
    }

    @Test
    void cwdEnvironmentAndPath() throws Exception {
        Files.createDirectories(dir.resolve("work"));
        apply("""
                resources:
                  - exec:
                      - env: {command: "sh -c 'echo $GREETING > here.txt'", cwd: ROOT/work, environment: {GREETING: hi}, path: /usr/bin:/bin}
                """);
        assertThat(Files.readString(dir.resolve("work/here.txt"))).isEqualTo("hi\n");
    }

    @Test
    void noopRunsGuardsButNotTheCommand() throws Exception {
        Report plan = new Manifests(dir).plan("""
                resources:
                  - exec: [{make: {command: "touch ROOT/made", unless: "test -e ROOT/never"}}]
                """);
        assertThat(resource(plan, "exec#make").status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("made")).doesNotExist();
    }

    @Test
    void shellSyntaxWithoutShellIsRejected() {
        assertThatThrownBy(() -> Command.of("echo a | tee b", false, false))
                .hasMessage("'|' is shell syntax (a pipe), and this command runs without a shell: add shell: true, or put it in single quotes "
                        + "to pass it as it is");
        assertThat(Command.of("echo 'a | b' \"c\\\"d\" e\\ f", false, false).argv()).containsExactly("echo", "a | b", "c\"d", "e f");
        assertThat(Command.of("echo a | tee b", true, false).argv()).containsExactly("/bin/sh", "-c", "echo a | tee b");
    }

    @Test
    void everyKindOfShellSyntaxIsFoundAttachedOrInDoubleQuotesAndNothingElse() {
        Map<String, String> found = new LinkedHashMap<>();
        for (String command : List.of("echo $HOME", "echo \"$HOME/x\"", "echo ${HOME}", "echo `date`", "echo \"$(date)\"", "ls *.txt",
                "ls a?c", "ls [ab].txt", "cat ~/notes", "echo a>b", "sort <in", "make 2>&1", "a;b", "make && make install", "a || b",
                "a|b", "sleep 1 &", "(cd /tmp)")) {
            CommandLine.ShellSyntax syntax = CommandLine.shellSyntax(command);
            found.put(command, syntax == null ? null : syntax.text() + " " + syntax.meaning());
        }
        assertThat(found).containsExactly(
                Map.entry("echo $HOME", "$HOME a variable"), Map.entry("echo \"$HOME/x\"", "$HOME a variable"),
                Map.entry("echo ${HOME}", "${ a variable"), Map.entry("echo `date`", "` command substitution"),
                Map.entry("echo \"$(date)\"", "$( command substitution"), Map.entry("ls *.txt", "*.txt a glob"),
                Map.entry("ls a?c", "?c a glob"), Map.entry("ls [ab].txt", "[ab].txt a glob"),
                Map.entry("cat ~/notes", "~/notes the home directory"), Map.entry("echo a>b", "> a redirection"),
                Map.entry("sort <in", "< a redirection"), Map.entry("make 2>&1", ">& a redirection"),
                Map.entry("a;b", "; a command separator"), Map.entry("make && make install", "&& an and-list"),
                Map.entry("a || b", "|| an or-list"), Map.entry("a|b", "| a pipe"), Map.entry("sleep 1 &", "& a background job"),
                Map.entry("(cd /tmp)", "( a subshell"));
        for (String plain : List.of("echo 'a | b $HOME *'", "echo \\$HOME \\*", "[ -f /etc/hostname ]", "echo a~b", "echo $ 5",
                "date +%s", "echo \"a b\" c=d", "test x = y")) {
            assertThat(CommandLine.shellSyntax(plain)).as(plain).isNull();
        }
        assertThatThrownBy(() -> Command.of("echo $TOKEN", false, true))
                .hasMessageStartingWith("the command has shell syntax (a variable), and runs without a shell: add shell: true")
                .hasMessageNotContaining("TOKEN");
    }

    @Test
    void aTinyTimeoutRoundsUpToAMillisecondInsteadOfMeaningNone() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - tiny: {command: "sleep 30", timeout: 0.0001}
                  - noop:
                      - checked: {health_checks: [{command: "sleep 30", timeout: 0.0001}]}
                """);
        assertThat(resource(report, "exec#tiny").error()).isEqualTo("'sleep 30' timed out after 0.001s and was killed");
        assertThat(resource(report, "noop#checked").error()).isEqualTo("health check 'sleep 30' critical: 'sleep 30' timed out after 0.001s and was killed");
    }

    @Test
    void outputOverTheLimitFailsTheResourceThatReadsIt() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - big: {command: "head -c 2097152 /dev/zero | tr '\\\\0' a", shell: true}
                  - file:
                      - ROOT/big: {content: "${ lookup('exec#big.stdout') }"}
                """);
        assertThat(resource(report, "exec#big").status()).isEqualTo(Status.CHANGED);
        assertThat(resource(report, "file#" + dir + "/big").error()).endsWith(": content: lookup('exec#big.stdout'): the command "
                + "printed 2097152 bytes to stdout; muster keeps 1048576 (1 MiB), so the value is incomplete");
        assertThat(dir.resolve("big")).doesNotExist();
    }
}
