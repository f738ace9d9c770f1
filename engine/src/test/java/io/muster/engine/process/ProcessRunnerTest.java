package io.muster.engine.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner as another kind uses it: argv, directory, environment, user, limits, and what comes back. */
class ProcessRunnerTest {
    @TempDir
    Path dir;

    @Test
    void outputPastTheLimitIsCountedNotKeptAndMarkedTruncated() throws Exception {
        ProcessRunner runner = new ProcessRunner(dir, Map.of(), List.of(), null, null, Duration.ofSeconds(30), true, 10, true);

        ProcessRunner.Outcome outcome = runner.run(List.of("sh", "-c", "printf 0123456789abcdef; printf err >&2; exit 3"), "'printer'");

        assertThat(outcome.exitCode()).isEqualTo(3);
        assertThat(outcome.stdout()).isEqualTo(new ProcessRunner.Output("0123456789", 6));
        assertThat(outcome.stdout().truncated()).isTrue();
        assertThat(outcome.stderr()).isEqualTo(new ProcessRunner.Output("err", 0));
        assertThat(outcome.stderr().truncated()).isFalse();
    }

    @Test
    void theCommandRunsInItsDirectoryWithTheEnvironmentAddedAndAsTheUserGiven() throws Exception {
        ProcessRunner runner = new ProcessRunner(dir, Map.of("EXTRA", "given"), List.of(), "nobody", null, Duration.ZERO, true, 1 << 10, true);

        String out = runner.run(List.of("sh", "-c", "pwd; id -un; echo $EXTRA $HOME $PATH"), "'who'").stdout().text();

        assertThat(out).isEqualTo(dir + "\nnobody\ngiven /nonexistent " + ProcessRunner.LOGIN_PATH + "\n");
    }

    @Test
    void withoutInheritingTheCommandGetsItsEnvironmentAloneAndIsStillFoundThroughMustersPath() throws Exception {
        ProcessRunner runner = new ProcessRunner(dir, Map.of("ONLY", "this"), List.of(), null, null, Duration.ZERO, true, 1 << 10, false);

        assertThat(runner.run(List.of("env"), "'env'").stdout().text()).isEqualTo("ONLY=this\n");
    }

    @Test
    void aProgramThatCannotStartSaysWhyInWords() throws Exception {
        Path script = dir.resolve("script");
        Files.writeString(script, "#!/no/such/interpreter -e\necho hi\n");
        Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessRunner runner = ProcessRunner.in(dir, Duration.ofSeconds(5));
        assertThatThrownBy(() -> runner.run(List.of(script.toString()), "'script'"))
                .hasMessage("cannot run 'script': its interpreter /no/such/interpreter (the #! line) was not found");

        ProcessRunner inPath = new ProcessRunner(dir, Map.of(), List.of("/nowhere", "/none"), null, null, Duration.ZERO, true, 1 << 10, true);
        assertThatThrownBy(() -> inPath.run(List.of("nosuch"), "'nosuch'"))
                .hasMessage("cannot run 'nosuch': not found in the exec's path (path: /nowhere:/none)");

        ProcessRunner gone = ProcessRunner.in(dir.resolve("gone"), Duration.ofSeconds(5));
        assertThatThrownBy(() -> gone.run(List.of("/bin/true"), "'/bin/true'"))
                .hasMessage("cannot run '/bin/true': its working directory " + dir.resolve("gone") + " does not exist");
    }

    @Test
    void messagesNameTheCommandAsTheCallerSays() {
        ProcessRunner runner = ProcessRunner.in(dir, Duration.ofMillis(200));

        assertThatThrownBy(() -> runner.run(List.of("no-such-program-here"), "the command (sensitive)"))
                .isInstanceOf(IOException.class)
                .hasMessage("cannot run the command (sensitive): not found in PATH (PATH=" + System.getenv("PATH") + ")");
        assertThatThrownBy(() -> runner.run(List.of("sleep", "5"), "'sleep 5'"))
                .isInstanceOf(IOException.class)
                .hasMessage("'sleep 5' timed out after 0.2s and was killed");
    }

    @Test
    void aCommandNotKilledAtItsTimeoutRunsToItsEndAndOnlyItsLateSuccessFails() throws Exception {
        ProcessRunner waiting = new ProcessRunner(dir, Map.of(), List.of(), null, null, Duration.ofMillis(300), false, 1 << 10, true);

        assertThatThrownBy(() -> waiting.run(List.of("sh", "-c", "sleep 1; touch late"), "'slow'"))
                .hasMessage("'slow' succeeded only after its timeout of 0.3s: context deadline exceeded");
        assertThat(dir.resolve("late")).as("not killed: it ran to its end").exists();
        assertThat(waiting.run(List.of("sh", "-c", "sleep 1; exit 3"), "'slow'").exitCode()).as("judged by its exit code").isEqualTo(3);
        assertThat(waiting.run(List.of("true"), "'quick'").exitCode()).isZero();

        ProcessRunner killing = new ProcessRunner(dir, Map.of(), List.of(), null, null, Duration.ofMillis(300), true, 1 << 10, true);
        assertThatThrownBy(() -> killing.run(List.of("sh", "-c", "sleep 1; touch killed"), "'slow'"))
                .hasMessage("'slow' timed out after 0.3s and was killed");
        assertThat(dir.resolve("killed")).doesNotExist();
    }
}
