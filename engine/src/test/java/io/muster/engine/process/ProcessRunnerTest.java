package io.muster.engine.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
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
        ProcessRunner runner = new ProcessRunner(dir, Map.of(), List.of(), null, null, Duration.ofSeconds(30), 10);

        ProcessRunner.Outcome outcome = runner.run(List.of("sh", "-c", "printf 0123456789abcdef; printf err >&2; exit 3"), "'printer'");

        assertThat(outcome.exitCode()).isEqualTo(3);
        assertThat(outcome.stdout()).isEqualTo(new ProcessRunner.Output("0123456789", 6));
        assertThat(outcome.stdout().truncated()).isTrue();
        assertThat(outcome.stderr()).isEqualTo(new ProcessRunner.Output("err", 0));
        assertThat(outcome.stderr().truncated()).isFalse();
    }

    @Test
    void theCommandRunsInItsDirectoryWithTheEnvironmentAddedAndAsTheUserGiven() throws Exception {
        ProcessRunner runner = new ProcessRunner(dir, Map.of("EXTRA", "given"), List.of(), "nobody", null, Duration.ZERO, 1 << 10);

        String out = runner.run(List.of("sh", "-c", "pwd; id -un; echo $EXTRA $HOME $PATH"), "'who'").stdout().text();

        assertThat(out).isEqualTo(dir + "\nnobody\ngiven /nonexistent " + ProcessRunner.LOGIN_PATH + "\n");
    }

    @Test
    void messagesNameTheCommandAsTheCallerSays() {
        ProcessRunner runner = ProcessRunner.in(dir, Duration.ofMillis(200));

        assertThatThrownBy(() -> runner.run(List.of("no-such-program-here"), "the command (sensitive)"))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("cannot run the command (sensitive): not found in PATH ");
        assertThatThrownBy(() -> runner.run(List.of("sleep", "5"), "'sleep 5'"))
                .isInstanceOf(IOException.class)
                .hasMessage("'sleep 5' timed out after 0.2s and was killed");
    }
}
