package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two muster processes on one state prefix: a run that changes things holds the prefix's lock, so a
 * {@code creates:}-guarded command runs once; the second run exits 75 naming the holder, or waits with
 * {@code --wait-lock}. A holder killed with SIGKILL blocks nothing. Runs that change nothing take no lock.
 */
class ConcurrentRunsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final MusterProcesses processes = new MusterProcesses();

    /**
     * Appends a line to {@code ran} each time the guarded command runs; it runs until the test
     * {@link #release}s it.
     */
    private Path guarded() {
        return new Manifests(dir).write("site.yaml", """
                resources:
                  - exec:
                      - once:
                          command: "echo ran >> ROOT/ran; until test -e ROOT/release; do sleep 0.02; done; touch ROOT/done"
                          shell: true
                          creates: ROOT/done
                          timeout: 60
                """);
    }

    private void release() throws IOException {
        Files.writeString(dir.resolve("release"), "");
    }

    @Test
    void aSecondApplyExits75NamingTheHolderAndTheCommandRunsOnce() throws Exception {
        MusterProcess first = muster("apply", guarded());
        eventually().until(() -> Files.exists(dir.resolve("ran")));

        MusterProcess second = muster("apply", guarded());

        assertThat(second.awaitExit(PATIENCE)).isEqualTo(75);
        assertThat(second.err()).isEqualTo("muster: another run (pid " + first.pid() + ") holds the state lock " + lockFile()
                + "; --wait-lock SECONDS waits for it\n");
        assertThat(second.out()).isEmpty();
        release();
        assertThat(first.awaitExit(PATIENCE)).isZero();
        assertThat(Files.readAllLines(dir.resolve("ran"))).hasSize(1);
    }

    @Test
    void withWaitLockTheSecondApplyRunsOnceTheFirstEndsAndFindsTheWorkDone() throws Exception {
        MusterProcess first = muster("apply", guarded());
        eventually().until(() -> Files.exists(dir.resolve("ran")));

        MusterProcess second = muster("apply", guarded(), "--wait-lock", 30);
        eventually().until(() -> second.err().contains("waiting up to 30s"));
        release();

        assertThat(second.awaitExit(PATIENCE)).isZero();
        assertThat(first.awaitExit(PATIENCE)).isZero();
        assertThat(second.err()).contains("muster: another run (pid " + first.pid() + ") holds the state lock " + lockFile()
                + "; waiting up to 30s");
        assertThat(second.out()).contains("changed 0, stable 1");
        assertThat(Files.readAllLines(dir.resolve("ran"))).hasSize(1);
    }

    @Test
    void twoAppliesStartedTogetherRunTheCommandOnce() throws Exception {
        MusterProcess a = muster("apply", guarded(), "--wait-lock", 30);
        MusterProcess b = muster("apply", guarded(), "--wait-lock", 30);
        // one waits for the other; without the lock, both would run the command
        eventually().until(() -> a.err().contains("waiting up to") || b.err().contains("waiting up to")
                || Files.exists(dir.resolve("ran")) && Files.readAllLines(dir.resolve("ran")).size() > 1);
        release();

        assertThat(a.awaitExit(PATIENCE)).isZero();
        assertThat(b.awaitExit(PATIENCE)).isZero();
        assertThat(Files.readAllLines(dir.resolve("ran"))).hasSize(1);
    }

    @Test
    void aHolderKilledWithSigkillBlocksNothing() throws Exception {
        MusterProcess holder = holdTheLock();
        holder.kill(); // its command keeps running, orphaned: it holds no lock

        release();
        MusterProcess next = muster("apply", guarded());

        assertThat(next.awaitExit(PATIENCE)).as(next.err()).isZero();
        assertThat(Files.readAllLines(dir.resolve("ran"))).hasSize(1);
        assertThat(lockFile()).hasContent(next.pid() + "\n");
    }

    @Test
    void aRunHoldsTheLockForAsLongAsItRuns() throws Exception {
        Path site = new Manifests(dir).write("run.yaml", "resources: [{file: [{ROOT/kept: {content: x}}]}]\n");
        MusterProcess run = muster("run", site);
        eventually().until(() -> Files.exists(dir.resolve("kept")));

        MusterProcess apply = muster("apply", guarded());

        assertThat(apply.awaitExit(PATIENCE)).isEqualTo(75);
        assertThat(apply.err()).contains("another run (pid " + run.pid() + ") holds the state lock");
        assertThat(dir.resolve("ran")).doesNotExist();
    }

    @Test
    void runsThatChangeNothingTakeNoLock() throws Exception {
        MusterProcess holder = holdTheLock();

        Path other = new Manifests(dir).write("other.yaml", "resources: [{file: [{ROOT/planned: {content: x}}]}]\n");
        assertThat(muster("plan", other).awaitExit(PATIENCE)).isEqualTo(2);
        assertThat(muster("apply", other, "--noop").awaitExit(PATIENCE)).isZero();
        assertThat(muster("check", other).awaitExit(PATIENCE)).isZero();

        assertThat(holder.isAlive()).as("all ran while the apply held the lock").isTrue();
        assertThat(dir.resolve("planned")).doesNotExist();
    }

    @Test
    void aSignalEndsTheWaitForTheLock() throws Exception {
        holdTheLock();
        MusterProcess waiting = muster("apply", guarded(), "--wait-lock", 300);
        eventually().until(() -> waiting.err().contains("waiting up to 300s"));

        waiting.terminate();

        assertThat(waiting.awaitExit(PATIENCE)).isEqualTo(143);
        assertThat(waiting.err()).contains("muster: stopped (SIGTERM) while waiting: another run");
    }

    @Test
    void aNegativeWaitIsAUsageError() {
        Cli cli = Cli.run("apply", guarded(), "--prefix", dir.resolve(".prefix"), "--wait-lock", "-1");
        assertThat(cli.exit()).isEqualTo(64);
        assertThat(cli.err()).contains("--wait-lock must be 0 or more seconds, got -1.0");
    }

    @Test
    void aPrefixThatCannotHoldTheLockIsOneLineAndExit1() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "");
        Cli cli = Cli.run("apply", guarded(), "--prefix", file.resolve("prefix"));
        assertThat(cli.exit()).isEqualTo(1);
        assertThat(cli.err()).isEqualTo("muster: cannot lock the state prefix " + file.resolve("prefix") + ": " + file
                + ": Not a directory\n");
        assertThat(dir.resolve("ran")).doesNotExist();
    }

    /** An apply that holds the lock until the test ends: its command sleeps. */
    private MusterProcess holdTheLock() throws IOException {
        Path sleeper = new Manifests(dir).write("sleeper.yaml", """
                resources:
                  - exec: [{long: {command: "touch ROOT/started; sleep 300", shell: true}}]
                """);
        MusterProcess holder = muster("apply", sleeper);
        eventually().until(() -> Files.exists(dir.resolve("started")));
        return holder;
    }

    private Path lockFile() {
        return dir.resolve(".prefix").resolve("lock");
    }

    private MusterProcess muster(String command, Path manifest, Object... options) throws IOException {
        return processes.start(dir, command, manifest, options);
    }

    private static ConditionFactory eventually() {
        return Awaitility.await().atMost(PATIENCE);
    }
}
