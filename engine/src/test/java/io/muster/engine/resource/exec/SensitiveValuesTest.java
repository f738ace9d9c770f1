package io.muster.engine.resource.exec;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.resource.Change;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sensitive} on an exec hides its commands and output; and a value read from a sensitive resource
 * makes what reads it sensitive, through declared values, run-time values, and chains of them.
 */
class SensitiveValuesTest {
    private static final String SECRET = "s3cr3t-hunter2";
    private static final String REDACTED = "content differs (sensitive: diff redacted)\n";

    @TempDir
    Path dir;

    @BeforeEach
    void existingFiles() throws Exception {
        for (String name : new String[] {"from-exec", "from-file", "chained"}) Files.writeString(dir.resolve(name), "old\n");
    }

    @Test
    void aSensitiveExecShowsNeitherItsCommandNorItsOutput() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - fails: {command: "sh -c 'echo SECRET >&2; exit 3'", sensitive: true}
                      - slow: {command: "sh -c 'sleep 30' SECRET", timeout: 0.1, sensitive: true}
                      - missing: {command: "no-such-program-SECRET", sensitive: true}
                """);

        assertThat(resource(report, "exec#fails").error()).isEqualTo("the command (sensitive) exited with 3 (expected 0)");
        assertThat(resource(report, "exec#slow").error()).isEqualTo("the command (sensitive) timed out after 0.1s and was killed");
        assertThat(resource(report, "exec#missing").error()).startsWith("cannot run the command (sensitive): not found in PATH ");
    }

    @Test
    void aValueFromASensitiveExecMakesTheFileThatShowsItSensitive() throws Exception {
        assertThat(diff(resource(plan("""
                resources:
                  - exec:
                      - secret: {command: "echo SECRET", query: true, sensitive: true}
                  - file:
                      - ROOT/from-exec: {content: "${ lookup('exec#secret.stdout') }\\n"}
                """), "file#" + dir + "/from-exec"))).isEqualTo(REDACTED);
    }

    @Test
    void aDeclaredValueOfASensitiveFileStaysSensitiveWhereItIsRead() throws Exception {
        assertThat(diff(resource(plan("""
                resources:
                  - file:
                      - ROOT/secret: {content: "SECRET\\n", sensitive: true}
                      - ROOT/from-file: {content: "${ lookup('file#ROOT/secret.content') }"}
                """), "file#" + dir + "/from-file"))).isEqualTo(REDACTED);
    }

    @Test
    void sensitivityFollowsAChainOfLookups() throws Exception {
        Report plan = plan("""
                resources:
                  - exec:
                      - secret: {command: "echo SECRET", query: true, sensitive: true}
                      - upper: {command: "echo ${ lookup('exec#secret.stdout') }", query: true}
                      - failing: {command: "sh -c 'exit 4' ${ lookup('exec#upper.stdout') }", query: true}
                  - file:
                      - ROOT/chained: {content: "${ lookup('exec#upper.stdout') }\\n"}
                """);

        assertThat(diff(resource(plan, "file#" + dir + "/chained"))).isEqualTo(REDACTED);
        assertThat(resource(plan, "exec#failing").error()).isEqualTo("the command (sensitive) exited with 4 (expected 0)");
    }

    @Test
    void aMessageShowingASensitiveValueIsNotShown() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - secret: {command: "echo SECRET", sensitive: true}
                  - msg:
                      - shown: {message: "the secret is ${ lookup('exec#secret.stdout') }"}
                """);

        assertThat(resource(report, "msg#shown").message()).isEqualTo("(sensitive message)");
    }

    @Test
    void anErrorOfAResourceThatReadASecretShowsItNowhere() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - secret: {command: "echo SECRET", query: true, sensitive: true}
                      - user: {command: "true", user: "${ lookup('exec#secret.stdout') }"}
                      - cwd: {command: "true", cwd: "/nonexistent/${ lookup('exec#secret.stdout') }"}
                      - creates: {command: "true", creates: "${ lookup('exec#secret.stdout') }"}
                  - file:
                      - ROOT/declared: {content: "SECRET", sensitive: true}
                      - ROOT/owner: {content: "x", owner: "${ lookup('exec#secret.stdout') }"}
                      - ROOT/group: {content: "x", group: "${ lookup('exec#secret.stdout') }"}
                      - ROOT/compiled: {content: "x", owner: "${ lookup('file#ROOT/declared.content') }"}
                """);

        assertThat(resource(report, "exec#user").error()).isEqualTo("user '(sensitive)' does not exist on this host");
        assertThat(resource(report, "exec#cwd").error()).isEqualTo("cannot run the command (sensitive): its working directory (sensitive) does not exist");
        assertThat(resource(report, "exec#creates").error()).endsWith("creates: expected an absolute path, got '(sensitive)'");
        assertThat(resource(report, "file#" + dir + "/owner").error()).isEqualTo("owner: no such user '(sensitive)'");
        assertThat(resource(report, "file#" + dir + "/group").error()).isEqualTo("group: no such group '(sensitive)'");
        assertThat(resource(report, "file#" + dir + "/compiled").error()).isEqualTo("owner: no such user '(sensitive)'");
        assertThat(report.resources()).allSatisfy(r -> assertThat(String.valueOf(r.error())).doesNotContain(SECRET));
    }

    @Test
    void aCompileErrorInAValueRenderedFromASecretDoesNotShowIt() {
        assertThatThrownBy(() -> apply("""
                resources:
                  - file:
                      - ROOT/declared: {content: "SECRET", sensitive: true}
                      - ROOT/mode: {content: "x", mode: "${ lookup('file#ROOT/declared.content') }"}
                  - exec:
                      - creates: {command: "true", creates: "x-${ lookup('file#ROOT/declared.content') }"}
                """))
                .hasMessageContaining("mode: expected an octal mode like \"0644\" or a symbolic one like \"u=rwx,go=rx\", got '(sensitive)'")
                .hasMessageContaining("creates: expected an absolute path, got '(sensitive)'")
                .message().doesNotContain(SECRET);
    }

    private Report plan(String yaml) throws Exception {
        return new Manifests(dir).plan(yaml.replace("SECRET", SECRET));
    }

    private Report apply(String yaml) throws Exception {
        return new Manifests(dir).apply(yaml.replace("SECRET", SECRET));
    }

    private static String diff(ResourceReport report) {
        return report.changes().stream().filter(c -> c.attribute().equals("content")).map(Change::diff).findFirst().orElseThrow();
    }
}
