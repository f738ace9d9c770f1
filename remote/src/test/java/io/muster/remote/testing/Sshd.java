package io.muster.remote.testing;

import io.muster.engine.util.FileTrees;
import io.muster.remote.ssh.Destination;
import io.muster.remote.ssh.JschConnector;
import io.muster.remote.ssh.LocalUser;
import io.muster.remote.ssh.SshSettings;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's real OpenSSH server on a free loopback port, standing for one host of {@code muster remote}: its own
 * temporary ed25519 host key, a user key in its authorized_keys, and a known_hosts file that trusts it. It logs in
 * the user running the tests (root here), whose commands run on this machine: a test's "remote" files are local ones.
 *
 * <p>{@link #kill()} takes the host down with its open connections; {@link #start()} brings it back on the same
 * port with the same keys. Without /usr/sbin/sshd it fails with the command that installs it: a skipped SSH test
 * would hide the missing install step.
 */
public final class Sshd implements AutoCloseable {
    private static final Path SSHD = Path.of("/usr/sbin/sshd");
    private static final Duration READY_WITHIN = Duration.ofSeconds(15);
    private static final int PORT_ATTEMPTS = 3;

    private final Path dir;
    private final Path hostKey;
    private final Path userKey;
    private final Path knownHosts;
    private final Path log;
    private int port;
    private Process process;

    private Sshd(Path dir) throws IOException, InterruptedException {
        this.dir = dir;
        this.hostKey = dir.resolve("host_ed25519");
        this.userKey = dir.resolve("user_ed25519");
        this.knownHosts = dir.resolve("known_hosts");
        this.log = dir.resolve("sshd.log");
        keygen(hostKey);
        keygen(userKey);
        Files.copy(Path.of(userKey + ".pub"), dir.resolve("authorized_keys"));
        Files.createDirectories(dir.resolve("home"));
    }

    /** A new sshd, started. */
    public static Sshd launch() throws IOException, InterruptedException {
        if (!Files.isExecutable(SSHD)) {
            throw new IllegalStateException(SSHD + " is missing: the SSH tests need Debian's OpenSSH server: apt-get install -y openssh-server");
        }
        Sshd sshd = new Sshd(Files.createTempDirectory("muster-sshd-"));
        try {
            sshd.start();
        } catch (IOException | RuntimeException e) {
            sshd.close();
            throw e;
        }
        return sshd;
    }

    public int port() {
        return port;
    }

    /** The login: the user running the tests. */
    public String user() {
        return System.getProperty("user.name");
    }

    /** The private key sshd accepts. */
    public Path userKey() {
        return userKey;
    }

    /** A known_hosts file with this server's key for [127.0.0.1]:port. */
    public Path knownHosts() {
        return knownHosts;
    }

    /** The host's public key as known_hosts and authorized_keys write it: {@code ssh-ed25519 AAAA...}. */
    public String hostKeyPub() throws IOException {
        String[] fields = Files.readString(Path.of(hostKey + ".pub")).trim().split("\\s+");
        return fields[0] + " " + fields[1];
    }

    /** This server as a DEST of the command line: {@code user@127.0.0.1:port}. */
    public Destination destination() {
        return Destination.parse(user() + "@127.0.0.1:" + port);
    }

    /** Settings that log in with {@link #userKey()} and trust by {@link #knownHosts()}; no ~/.ssh/config. */
    public SshSettings settings() {
        return new SshSettings(List.of(userKey), knownHosts, false, false, dir.resolve("no-ssh-config"), Duration.ofSeconds(5));
    }

    /** This server as reached through a relay on another loopback port (a {@link CuttingProxy}). */
    public Destination destinationVia(int relayPort) {
        return Destination.parse(user() + "@127.0.0.1:" + relayPort);
    }

    /** {@link #settings()} with a known_hosts file that trusts this server's key at the relay's port. */
    public SshSettings settingsVia(int relayPort) throws IOException {
        Path relayed = dir.resolve("known_hosts-" + relayPort);
        Files.writeString(relayed, "[127.0.0.1]:" + relayPort + " " + hostKeyPub() + "\n");
        return new SshSettings(List.of(userKey), relayed, false, false, dir.resolve("no-ssh-config"), Duration.ofSeconds(5));
    }

    /** The local user with an empty home and no ssh-agent, so the tester's own keys and agent stay out of the tests. */
    public LocalUser localUser() {
        return new LocalUser(user(), dir.resolve("home"), null);
    }

    /** A connector with {@link #settings()} as {@link #localUser()}. */
    public JschConnector connector() {
        return new JschConnector(settings(), localUser());
    }

    /** Starts sshd (again, on the same port, after {@link #kill()}) and waits until it greets. */
    public synchronized void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) return;
        boolean again = port != 0;
        for (int attempt = 1; ; attempt++) {
            if (!again) port = freePort();
            process = launchProcess();
            if (awaitGreeting()) break;
            kill();
            if (again || attempt == PORT_ATTEMPTS) throw new IOException("sshd did not start on port " + port + "; its log:\n" + Files.readString(log));
        }
        Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + hostKeyPub() + "\n");
    }

    /** SIGKILL to sshd and its per-connection processes: the host is gone, its connections dropped. */
    public synchronized void kill() throws InterruptedException {
        if (process == null) return;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    private Process launchProcess() throws IOException {
        Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation directory
        return new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", "/dev/null", "-p", Integer.toString(port),
                "-o", "ListenAddress=127.0.0.1", "-o", "HostKey=" + hostKey, "-o", "AuthorizedKeysFile=" + dir.resolve("authorized_keys"),
                "-o", "StrictModes=no", "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no",
                "-o", "PidFile=" + dir.resolve("sshd.pid"), "-o", "AllowTcpForwarding=yes", "-o", "Subsystem=sftp internal-sftp",
                "-o", "LogLevel=VERBOSE")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    /** Ready when our process is alive and its greeting comes from the port: another server could hold it. */
    private boolean awaitGreeting() throws InterruptedException {
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.setSoTimeout(2_000);
                InputStream in = socket.getInputStream();
                if (new String(in.readNBytes(8), StandardCharsets.US_ASCII).startsWith("SSH-2.0-") && process.isAlive()) return true;
            } catch (IOException e) {
                // not listening yet
            }
            process.waitFor(20, TimeUnit.MILLISECONDS); // a poll interval that ends early if sshd dies
        }
        return false;
    }

    private static void keygen(Path key) throws IOException, InterruptedException {
        Process keygen = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "muster-test", "-f", key.toString())
                .redirectErrorStream(true).start();
        String output = new String(keygen.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keygen.waitFor() != 0) throw new IOException("ssh-keygen failed: " + output);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Stops sshd and removes its keys and files. */
    @Override
    public void close() throws IOException, InterruptedException {
        kill();
        FileTrees.delete(dir);
    }
}
