package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code muster run} reading edits of its manifest: an edit that cannot be read, however broken, is one
 * located line, and the edits after it are still applied (a manifest nested 2000 deep used to overflow
 * the stack of the reload thread, which died, so every later edit was ignored).
 */
class ManifestReloadTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private MusterProcess muster;

    @AfterEach
    void stop() throws InterruptedException, IOException {
        if (muster != null) muster.close();
    }

    @Test
    void aManifestTooDeepToReadIsReportedAndTheNextEditIsApplied() throws Exception {
        Path site = new Manifests(dir).write("site.yaml", fileWith("v1"));
        muster = MusterProcess.start(dir, "muster", "run", site, "--prefix", dir.resolve(".prefix"));
        eventually().until(() -> Files.readString(dir.resolve("a")).equals("v1\n"));

        for (int depth : new int[] {2000, 5000}) {
            save(site, "resources:\n  - msg: {name: deep, message: " + "[".repeat(depth) + "]".repeat(depth) + "}\n");
            eventually().until(() -> muster.err().contains(site + ":2:228: nested deeper than 200 levels (the limit)"));
            save(site, fileWith("after " + depth));
            eventually().until(() -> Files.readString(dir.resolve("a")).equals("after " + depth + "\n"));
        }
        assertThat(muster.isAlive()).isTrue();
        assertThat(muster.err()).doesNotContain("Exception", "Error:", "\tat ");
    }

    @Test
    void aFifoInPlaceOfTheManifestIsReportedWithoutWaitingForAWriterAndTheNextEditIsApplied() throws Exception {
        Path site = new Manifests(dir).write("site.yaml", fileWith("v1"));
        muster = MusterProcess.start(dir, "muster", "run", site, "--prefix", dir.resolve(".prefix"));
        eventually().until(() -> Files.readString(dir.resolve("a")).equals("v1\n"));

        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Files.move(fifo, site, StandardCopyOption.ATOMIC_MOVE);
        eventually().until(() -> muster.err().contains(site + ":1:1: cannot read: not a regular file (a directory, FIFO or device)"));
        save(site, fileWith("after"));
        eventually().until(() -> Files.readString(dir.resolve("a")).equals("after\n"));

        muster.terminate();
        assertThat(muster.awaitExit(PATIENCE)).as("the reload thread is not stuck opening the FIFO").isZero();
    }

    private String fileWith(String content) {
        return "resources:\n  - file: [{" + dir.resolve("a") + ": {content: \"" + content + "\\n\"}}]\n";
    }

    /** Saved as editors do: written aside, renamed over. */
    private void save(Path site, String yaml) throws IOException {
        Path aside = dir.resolve("site.yaml.new");
        Files.writeString(aside, yaml);
        Files.move(aside, site, StandardCopyOption.ATOMIC_MOVE);
    }

    private static ConditionFactory eventually() {
        return Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).ignoreExceptions();
    }
}
