package io.muster.remote.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.muster.remote.testing.CuttingProxy;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What muster does over a connection to a real sshd: commands and their lines, files, forwards, and drops. */
class JschConnectionTest {
    private static final Duration SOON = Duration.ofSeconds(10);
    private static Sshd sshd;

    @TempDir
    Path temp;

    @BeforeAll
    static void startSshd() throws Exception {
        sshd = Sshd.launch();
    }

    @AfterAll
    static void stopSshd() throws Exception {
        sshd.close();
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
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread running = Thread.ofVirtual().start(() -> ended.set(catchThrowable(() ->
                ssh.exec("echo ready; cat; echo gone > " + Shell.quote(gone.toString()), lines::add))));

        await().atMost(SOON).until(() -> lines.contains("ready"));
        assertThat(running.isAlive()).as("the command waits on its open stdin").isTrue();
        ssh.close();

        await().atMost(SOON).until(() -> Files.exists(gone) && Files.readString(gone).equals("gone\n"));
        running.join(SOON);
        assertThat(ended.get()).isInstanceOf(SshException.class).hasMessageContaining("closed");
        assertThat(((SshException) ended.get()).retriable()).isFalse();
    }

    @Test
    void interruptingAnExecClosesItsChannel() throws Exception {
        Path gone = temp.resolve("gone");
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            Queue<String> lines = new ConcurrentLinkedQueue<>();
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread running = Thread.ofVirtual().start(() -> ended.set(catchThrowable(() ->
                    ssh.exec("echo ready; cat; echo gone > " + Shell.quote(gone.toString()), lines::add))));
            await().atMost(SOON).until(() -> lines.contains("ready"));

            running.interrupt();
            running.join(SOON);
            assertThat(ended.get()).isInstanceOf(InterruptedException.class);
            await().atMost(SOON).until(() -> Files.exists(gone));
            assertThat(ssh.exec("echo still usable", lines::add)).isZero();
        }
    }

    @Test
    void aDroppedConnectionIsARetriableFailure() throws Exception {
        try (CuttingProxy proxy = new CuttingProxy(sshd.port()); SshConnection ssh = throughProxy(proxy)) {
            Queue<String> lines = new ConcurrentLinkedQueue<>();
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread running = Thread.ofVirtual().start(() -> ended.set(catchThrowable(() -> ssh.exec("echo ready; cat", lines::add))));
            await().atMost(SOON).until(() -> lines.contains("ready"));

            proxy.cutAll();
            running.join(SOON);
            assertThat(ended.get()).isInstanceOf(SshException.class).hasMessageContaining("dropped");
            assertThat(((SshException) ended.get()).retriable()).isTrue();
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
        Path knownHosts = temp.resolve("known_hosts");
        Files.writeString(knownHosts, "[127.0.0.1]:" + proxy.port() + " " + sshd.hostKeyPub() + "\n");
        SshSettings settings = new SshSettings(List.of(sshd.userKey()), knownHosts, false, false, temp.resolve("none"), Duration.ofSeconds(5));
        return new JschConnector(settings, sshd.localUser()).connect(Destination.parse(sshd.user() + "@127.0.0.1:" + proxy.port()));
    }

    private static List<String> numbered(String prefix) {
        return java.util.stream.IntStream.rangeClosed(1, 300).mapToObj(i -> prefix + i).toList();
    }
}
