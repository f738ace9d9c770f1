package io.muster.remote.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.muster.remote.testing.CuttingProxy;
import io.muster.remote.testing.SharedSshd;
import io.muster.remote.testing.Sshd;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** What muster does over a connection to a real sshd: commands and their lines, files, forwards, and drops. */
@ExtendWith(SharedSshd.class)
class JschConnectionTest {
    private static final Duration SOON = Duration.ofSeconds(10);
    private final Sshd sshd;

    @TempDir
    Path temp;

    JschConnectionTest(Sshd sshd) {
        this.sshd = sshd;
    }

    @Test
    void streamsStdoutAndStderrLinesInTheirOrderAndReturnsTheExitStatus() throws Exception {
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            Queue<String> lines = new ConcurrentLinkedQueue<>();
            int status = ssh.exec("for i in $(seq 1 300); do echo out$i; echo err$i >&2; done; printf tail; exit 3", lines::add);

            assertThat(status).isEqualTo(3);
            assertThat(lines.stream().filter(l -> l.startsWith("out"))).containsExactlyElementsOf(numbered("out"));
            assertThat(lines.stream().filter(l -> l.startsWith("err"))).containsExactlyElementsOf(numbered("err"));
            assertThat(lines).contains("tail");
            assertThat(ssh.exec("true", line -> {})).isZero();
            assertThat(ssh.exec("kill -TERM $$", line -> {})).isEqualTo(128 + 15);
        }
    }

    @Test
    void linesComeWhileTheCommandRunsAndClosingGivesItEndOfFileOnStdin() throws Exception {
        Path gone = temp.resolve("gone");
        SshConnection ssh = sshd.connector().connect(sshd.destination());
        Reading reading = Reading.start(ssh, gone);
        assertThat(reading.thread().isAlive()).as("the command waits on its open stdin").isTrue();

        ssh.close();
        await().atMost(SOON).until(() -> Files.exists(gone) && Files.readString(gone).equals("gone\n"));
        assertThat(reading.failure()).isInstanceOf(SshException.class).hasMessageContaining("closed");
        assertThat(((SshException) reading.failure()).retriable()).isFalse();
    }

    @Test
    void interruptingAnExecClosesItsChannel() throws Exception {
        Path gone = temp.resolve("gone");
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            Reading reading = Reading.start(ssh, gone);

            reading.thread().interrupt();
            assertThat(reading.failure()).isInstanceOf(InterruptedException.class);
            await().atMost(SOON).until(() -> Files.exists(gone));
            assertThat(ssh.exec("echo still usable", line -> {})).isZero();
        }
    }

    @Test
    void aDroppedConnectionIsARetriableFailure() throws Exception {
        Path gone = temp.resolve("gone");
        try (CuttingProxy proxy = new CuttingProxy(sshd.port()); SshConnection ssh = throughProxy(proxy)) {
            Reading reading = Reading.start(ssh, gone);

            proxy.cutAll();
            assertThat(reading.failure()).isInstanceOf(SshException.class).hasMessageContaining("dropped");
            assertThat(((SshException) reading.failure()).retriable()).isTrue();
        }
        awaitRemoteEnd(gone);
    }

    /**
     * The remote command of a dropped connection gets end-of-file once sshd sees the connection gone, and then
     * writes its file: awaited, so nothing is left running (or writing into the test's directory while it is deleted).
     */
    private static void awaitRemoteEnd(Path gone) {
        await().atMost(SOON).until(() -> Files.exists(gone));
    }

    @Test
    void keepalivesNoticeAConnectionGoneSilentWithinFifteenSeconds() throws Exception {
        Path gone = temp.resolve("gone");
        try (CuttingProxy proxy = new CuttingProxy(sshd.port()); SshConnection ssh = throughProxy(proxy)) {
            Reading reading = Reading.start(ssh, gone);

            proxy.stall();
            long start = System.nanoTime();
            assertThat(reading.failure()).isInstanceOf(SshException.class).hasMessageContaining("dropped");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(17));
            assertThat(((SshException) reading.failure()).retriable()).isTrue();
        }
        awaitRemoteEnd(gone);
    }

    /** A remote command that says "ready", reads its stdin to the end, then writes "gone" to a file; run in the background. */
    private record Reading(Thread thread, AtomicReference<Throwable> ended) {
        static Reading start(SshConnection ssh, Path gone) {
            Queue<String> lines = new ConcurrentLinkedQueue<>();
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread thread = Thread.ofVirtual().start(() -> ended.set(catchThrowable(() ->
                    ssh.exec("echo ready; cat; echo gone > " + Shell.quote(gone.toString()), lines::add))));
            await().atMost(SOON).until(() -> lines.contains("ready"));
            return new Reading(thread, ended);
        }

        /** What the exec threw, once it has ended (within 30 s). */
        Throwable failure() throws InterruptedException {
            assertThat(thread.join(Duration.ofSeconds(30))).as("the exec ended").isTrue();
            return ended.get();
        }
    }

    @Test
    void uploadsAFileWithItsMode() throws Exception {
        Path local = temp.resolve("local.bin");
        byte[] content = new byte[300_000];
        new Random(7).nextBytes(content);
        Files.write(local, content);
        Path remote = temp.resolve("remote.bin");
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            ssh.upload(local, remote.toString(), 0750);
            ssh.upload(local, remote + ".again", 0600);
        }
        assertThat(Files.readAllBytes(remote)).isEqualTo(content);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote))).isEqualTo("rwxr-x---");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(remote + ".again")))).isEqualTo("rw-------");
    }

    @Test
    void anUploadTheServerRefusesIsNotRetriable() throws Exception {
        Path local = Files.writeString(temp.resolve("local"), "content");
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            SshException refused = catchThrowableOfType(SshException.class, () -> ssh.upload(local, temp.resolve("missing/dir/file").toString(), 0644));
            assertThat(refused.getMessage()).contains("No such file");
            assertThat(refused.retriable()).isFalse();
            ssh.upload(local, temp.resolve("file").toString(), 0644);
        }
        assertThat(temp.resolve("file")).hasContent("content");
    }

    @Test
    void aRemoteCommandReachesALocalPortThroughTheForward() throws Exception {
        try (ServerSocket local = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> greet(local));
            for (int i = 0; i < 3; i++) {
                try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
                    int remotePort = ssh.forwardRemotePort("127.0.0.1", local.getLocalPort());
                    assertThat(Thread.currentThread().isInterrupted()).as("no interrupt leaks out of JSch's wait for the forward").isFalse();
                    Queue<String> lines = new ConcurrentLinkedQueue<>();
                    int status = ssh.exec("bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + remotePort + "; head -1 <&3'", lines::add);
                    assertThat(status).isZero();
                    assertThat(lines).containsExactly("hello through the tunnel");
                    assertThatThrownBy(() -> ssh.forwardRemotePort("127.0.0.1", local.getLocalPort())).isInstanceOf(IllegalStateException.class);
                }
            }
        }
    }

    private static void greet(ServerSocket server) {
        while (!server.isClosed()) {
            try (Socket client = server.accept(); OutputStream out = client.getOutputStream()) {
                out.write("hello through the tunnel\n".getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the test is over
            }
        }
    }

    private SshConnection throughProxy(CuttingProxy proxy) throws Exception {
        return new JschConnector(sshd.settingsVia(proxy.port()), sshd.localUser()).connect(sshd.destinationVia(proxy.port()));
    }

    private static List<String> numbered(String prefix) {
        return java.util.stream.IntStream.rangeClosed(1, 300).mapToObj(i -> prefix + i).toList();
    }
}
