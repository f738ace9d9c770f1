package io.muster.remote.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.muster.engine.util.FileTrees;
import io.muster.remote.testing.SharedSshd;
import io.muster.remote.testing.Sshd;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Connecting to Debian's real sshd: keys, ssh-agent, known_hosts, ~/.ssh/config, and the one-line failures. */
@ExtendWith(SharedSshd.class)
class JschConnectorTest {
    private final Sshd sshd;

    @TempDir
    Path temp;

    JschConnectorTest(Sshd sshd) {
        this.sshd = sshd;
    }

    @Test
    void logsInWithTheKeyAndRunsCommands() throws Exception {
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            List<String> lines = new ArrayList<>();
            assertThat(ssh.exec("whoami", lines::add)).isZero();
            assertThat(lines).containsExactly(sshd.user());
        }
    }

    @Test
    void refusesAnUnknownHostKeyWithItsFingerprintAndTheFlag() throws Exception {
        SshSettings settings = with(sshd.settings(), temp.resolve("known_hosts"), false);
        SshException refused = refusal(() -> new JschConnector(settings, sshd.localUser()).connect(sshd.destination()));
        assertThat(refused.getMessage()).contains("ssh-ed25519", "[127.0.0.1]:" + sshd.port(), opensshFingerprint(sshd.hostKeyPub()),
                "--accept-new-host-keys");
        assertThat(refused.retriable()).isFalse();
        assertThat(temp.resolve("known_hosts")).doesNotExist();
    }

    @Test
    void acceptsANewHostKeyIntoKnownHostsAndTrustsItAfterwards() throws Exception {
        Path knownHosts = temp.resolve("new/.ssh/known_hosts");
        new JschConnector(with(sshd.settings(), knownHosts, true), sshd.localUser()).connect(sshd.destination()).close();

        assertThat(Files.readAllLines(knownHosts)).containsExactly("[127.0.0.1]:" + sshd.port() + " " + sshd.hostKeyPub());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(knownHosts))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(knownHosts.getParent()))).isEqualTo("rwx------");
        new JschConnector(with(sshd.settings(), knownHosts, false), sshd.localUser()).connect(sshd.destination()).close();
        assertThat(Files.readAllLines(knownHosts)).hasSize(1);
    }

    @Test
    void trustsAHashedKnownHostsEntry() throws Exception {
        Path knownHosts = temp.resolve("known_hosts");
        Files.copy(sshd.knownHosts(), knownHosts);
        run("ssh-keygen", "-q", "-H", "-f", knownHosts.toString());
        assertThat(Files.readString(knownHosts)).startsWith("|1|");

        new JschConnector(with(sshd.settings(), knownHosts, false), sshd.localUser()).connect(sshd.destination()).close();
    }

    @Test
    void refusesAChangedHostKeyEvenWhenNewKeysAreAccepted() throws Exception {
        try (Sshd other = Sshd.launch()) {
            Path knownHosts = temp.resolve("known_hosts");
            String stale = "[127.0.0.1]:" + sshd.port() + " " + other.hostKeyPub();
            Files.writeString(knownHosts, "# hosts\n" + stale + "\n");

            SshException refused = refusal(() -> new JschConnector(with(sshd.settings(), knownHosts, true), sshd.localUser()).connect(sshd.destination()));
            assertThat(refused.getMessage()).contains("CHANGED", opensshFingerprint(sshd.hostKeyPub()), opensshFingerprint(other.hostKeyPub()),
                    knownHosts + ":2", "ssh-keygen -R '[127.0.0.1]:" + sshd.port() + "'", "even with --accept-new-host-keys");
            assertThat(refused.retriable()).isFalse();
            assertThat(Files.readString(knownHosts)).isEqualTo("# hosts\n" + stale + "\n");
        }
    }

    @Test
    void aKeyOfTheSameHostOnPort22DoesNotCountForAnotherPort() throws Exception {
        try (Sshd other = Sshd.launch()) {
            Path knownHosts = temp.resolve("known_hosts");
            Files.writeString(knownHosts, "127.0.0.1 " + other.hostKeyPub() + "\n");
            SshException refused = refusal(() -> new JschConnector(with(sshd.settings(), knownHosts, false), sshd.localUser()).connect(sshd.destination()));
            assertThat(refused.getMessage()).contains("is not known").doesNotContain("CHANGED");
        }
    }

    @Test
    void aRefusedLoginSaysWhatWasTriedAndWhichFlagsHelp() throws Exception {
        Path wrongKey = temp.resolve("wrong_ed25519");
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", wrongKey.toString());
        SshSettings settings = new SshSettings(List.of(wrongKey), sshd.knownHosts(), false, false, temp.resolve("none"), Duration.ofSeconds(5));

        SshException refused = refusal(() -> new JschConnector(settings, sshd.localUser()).connect(sshd.destination()));
        assertThat(refused.getMessage()).contains(sshd.user() + "@127.0.0.1:" + sshd.port(), "login refused", "-i " + wrongKey, "--allow-interactive");
        assertThat(refused.retriable()).isFalse();
    }

    @Test
    void aPortWithoutSshdIsARetriableOneLineErrorWithinTheTimeout() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        long start = System.nanoTime();
        SshException refused = refusal(() -> sshd.connector().connect(Destination.parse("127.0.0.1:" + closed)));
        assertThat(refused.getMessage()).contains("127.0.0.1:" + closed, "connection refused");
        assertThat(refused.retriable()).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aServerThatNeverAnswersTimesOutRetriably() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            SshSettings settings = new SshSettings(List.of(sshd.userKey()), sshd.knownHosts(), false, false, temp.resolve("none"), Duration.ofSeconds(1));
            long start = System.nanoTime();
            SshException refused = refusal(() -> new JschConnector(settings, sshd.localUser()).connect(Destination.parse("127.0.0.1:" + silent.getLocalPort())));
            assertThat(refused.getMessage()).contains("no answer within 1 s");
            assertThat(refused.retriable()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
        }
    }

    @Test
    void aHostThatWasDownIsReachedAgainOnceBack() throws Exception {
        try (Sshd host = Sshd.launch()) {
            host.kill();
            assertThat(refusal(() -> host.connector().connect(host.destination())).retriable()).isTrue();

            host.start();
            host.connector().connect(host.destination()).close();
        }
    }

    @Test
    void aServerThatHangsUpAtOnceIsRetriable() throws Exception {
        try (ServerSocket hangingUp = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                while (!hangingUp.isClosed()) {
                    try {
                        hangingUp.accept().close();
                    } catch (IOException e) {
                        // the test is over
                    }
                }
            });
            SshException refused = refusal(() -> sshd.connector().connect(Destination.parse("127.0.0.1:" + hangingUp.getLocalPort())));
            assertThat(refused.getMessage()).contains("closed the connection");
            assertThat(refused.retriable()).isTrue();
        }
    }

    @Test
    void anUnknownHostNameIsNotRetriable() throws Exception {
        SshException refused = refusal(() -> sshd.connector().connect(Destination.parse("no-such-host.invalid")));
        assertThat(refused.getMessage()).contains("unknown host name 'no-such-host.invalid'");
        assertThat(refused.retriable()).isFalse();
    }

    @Test
    void followsTheSshConfigForHostNamePortUserAndIdentityFile() throws Exception {
        Path config = temp.resolve("config");
        Files.writeString(config, String.join("\n",
                "Host other",
                "  HostName 192.0.2.1",
                "Host box",
                "  HostName 127.0.0.1",
                "  Port " + sshd.port(),
                "  User " + sshd.user(),
                "  IdentityFile " + sshd.userKey(),
                ""));
        SshSettings settings = new SshSettings(List.of(), sshd.knownHosts(), false, false, config, Duration.ofSeconds(5));
        try (SshConnection ssh = new JschConnector(settings, sshd.localUser()).connect(Destination.parse("box"))) {
            List<String> lines = new ArrayList<>();
            assertThat(ssh.exec("whoami", lines::add)).isZero();
            assertThat(lines).containsExactly(sshd.user());
            assertThat(ssh.destination().name()).isEqualTo("box");
        }
    }

    @Test
    void logsInWithAKeyOfTheSshAgent() throws Exception {
        Path socket = temp.resolve("agent.sock");
        Process agent = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString()).redirectErrorStream(true)
                .redirectOutput(temp.resolve("agent.log").toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(socket));
            run(Map.of("SSH_AUTH_SOCK", socket.toString()), "ssh-add", sshd.userKey().toString());
            SshSettings noKeys = new SshSettings(List.of(), sshd.knownHosts(), false, false, temp.resolve("none"), Duration.ofSeconds(5));
            LocalUser withAgent = new LocalUser(sshd.user(), sshd.localUser().home(), socket);
            try (SshConnection ssh = new JschConnector(noKeys, withAgent).connect(sshd.destination())) {
                assertThat(ssh.exec("true", line -> {})).isZero();
            }
        } finally {
            agent.destroy();
            agent.waitFor();
        }
    }

    private static SshSettings with(SshSettings settings, Path knownHosts, boolean acceptNew) {
        return new SshSettings(settings.identities(), knownHosts, acceptNew, settings.allowInteractive(), settings.sshConfig(), settings.connectTimeout());
    }

    private static SshException refusal(ThrowableAssert.ThrowingCallable connect) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(connect);
        assertThat(thrown).isInstanceOf(SshException.class);
        assertThat(thrown.getMessage()).doesNotContain("\n");
        return (SshException) thrown;
    }

    /** The fingerprint as OpenSSH's own ssh-keygen -l prints it. */
    private String opensshFingerprint(String publicKey) throws Exception {
        Path pub = Files.createTempFile(temp, "key", ".pub");
        Files.writeString(pub, publicKey + "\n");
        return run("ssh-keygen", "-l", "-E", "sha256", "-f", pub.toString()).split("\\s+")[1];
    }

    private static String run(String... command) throws IOException, InterruptedException {
        return run(Map.of(), command);
    }

    private static String run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(String.join(" ", command) + ": " + output).isZero();
        return output;
    }
}
