package io.muster.agent.testing;

import io.muster.engine.util.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A real etcd (Debian's {@code etcd-server}) on free loopback ports, its data on /dev/shm: one per test JVM,
 * shared by every test class that uses {@code @ExtendWith(LocalEtcd.class)} and takes a {@code LocalEtcd}
 * parameter. Tests keep apart by a unique namespace each ({@link #uniqueNamespace}).
 *
 * <p>Fault tests may {@link #kill()} it (SIGKILL) and {@link #start()} it again on the same ports and data;
 * they must leave it running. A missing binary fails the test with the command that installs it (on CI as
 * anywhere: a skipped fleet test would hide the missing install step).
 */
public final class LocalEtcd implements BeforeAllCallback, ParameterResolver, ExtensionContext.Store.CloseableResource, AutoCloseable {
    private static final AtomicInteger NAMESPACES = new AtomicInteger();
    private static final Duration READY_WITHIN = Duration.ofSeconds(20);

    private final Path binary;
    private final Path dataDir;
    private final Path log;
    private final String name;
    /** etcd's TLS flags, empty for the shared plain etcd. */
    private final List<String> tlsFlags;
    private int clientPort;
    private int metricsPort;
    private int peerPort;
    private Process process;

    /** For JUnit: the extension instance; the etcd itself lives in the root store. */
    public LocalEtcd() {
        this.binary = null;
        this.dataDir = null;
        this.log = null;
        this.name = null;
        this.tlsFlags = List.of();
    }

    private LocalEtcd(Path binary, List<String> tlsFlags) throws IOException {
        this.tlsFlags = List.copyOf(tlsFlags);
        this.binary = binary;
        Path shm = Paths.get("/dev/shm");
        this.dataDir = Files.createTempDirectory(Files.isDirectory(shm) ? shm : Paths.get(System.getProperty("java.io.tmpdir")), "muster-etcd-");
        Path target = Paths.get("target");
        Files.createDirectories(target);
        this.name = "muster-test-" + ProcessHandle.current().pid();
        this.log = target.resolve("etcd-" + name + ".log").toAbsolutePath();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        shared(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalEtcd.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return shared(context);
    }

    private static LocalEtcd shared(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(LocalEtcd.class, key -> startShared(), LocalEtcd.class);
    }

    private static LocalEtcd startShared() {
        try {
            LocalEtcd etcd = new LocalEtcd(binary(), List.of());
            etcd.start();
            Runtime.getRuntime().addShutdownHook(new Thread(etcd::destroy));
            return etcd;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An etcd of its own (not the shared one; the caller closes it) serving TLS with {@code certificate} and
     * {@code key}, accepting clients whose certificate {@code ca} signed, the common name being the etcd user once
     * auth is enabled.
     */
    public static LocalEtcd startSecured(Path certificate, Path key, Path ca) throws IOException {
        return startSecured(List.of("--cert-file", certificate.toString(), "--key-file", key.toString(),
                "--trusted-ca-file", ca.toString(), "--client-cert-auth"));
    }

    /** An etcd of its own (the caller closes it) serving TLS with {@code tlsFlags}: a fleet's {@code FleetPki.etcdFlags()}. */
    public static LocalEtcd startSecured(List<String> tlsFlags) throws IOException {
        LocalEtcd etcd = new LocalEtcd(binary(), tlsFlags);
        etcd.start();
        return etcd;
    }

    /** The client URL, e.g. {@code http://127.0.0.1:43121}, or {@code https://…} for a secured etcd. */
    public String endpoint() {
        return (tlsFlags.isEmpty() ? "http" : "https") + "://127.0.0.1:" + clientPort;
    }

    /** A namespace (key prefix) no other test of this JVM uses, ending in '/'. */
    public static String uniqueNamespace(String test) {
        return "/test-" + test + "-" + NAMESPACES.incrementAndGet() + "/";
    }

    public boolean running() {
        return process != null && process.isAlive();
    }

    /** Starts etcd (again, on the same ports and data when it ran before) and waits until it serves. */
    public synchronized void start() throws IOException {
        if (running()) return;
        boolean again = clientPort != 0;
        for (int attempt = 1; ; attempt++) {
            if (!again) {
                clientPort = freePort();
                peerPort = freePort();
                metricsPort = freePort();
            }
            process = launch();
            if (awaitReady()) return;
            process.destroyForcibly();
            if (again || attempt == 3) throw new IOException("etcd did not start; its log: " + log + "\n" + tail());
        }
    }

    /** SIGKILL, as a crash would; {@link #start()} brings it back with its data. */
    public synchronized void kill() throws InterruptedException {
        if (process == null) return;
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    private Process launch() throws IOException {
        String client = endpoint();
        String peer = "http://127.0.0.1:" + peerPort;
        List<String> command = new java.util.ArrayList<>(List.of(binary.toString(), "--name", name, "--data-dir", dataDir.toString(),
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--listen-metrics-urls", metrics(),
                "--initial-cluster", name + "=" + peer, "--initial-cluster-state", "new",
                "--logger", "zap", "--log-outputs", "stderr", "--log-level", "warn"));
        command.addAll(tlsFlags);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    private String metrics() {
        return "http://127.0.0.1:" + metricsPort;
    }

    /**
     * Ready when our own process answers with our member name: a naive health poll would be answered by
     * another etcd that holds the port we failed to bind. A secured etcd wants a client certificate for that:
     * its health is asked on the metrics URL (plain HTTP) while the process lives.
     */
    private boolean awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest members = tlsFlags.isEmpty()
                ? HttpRequest.newBuilder(URI.create(endpoint() + "/v3/cluster/member/list"))
                        .timeout(Duration.ofSeconds(2)).POST(HttpRequest.BodyPublishers.ofString("{}")).build()
                : HttpRequest.newBuilder(URI.create(metrics() + "/health")).timeout(Duration.ofSeconds(2)).GET().build();
        String answer = tlsFlags.isEmpty() ? "\"" + name + "\"" : "\"health\":\"true\"";
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) return false;
            try {
                HttpResponse<String> response = http.send(members, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains(answer)) return process.isAlive();
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            try {
                process.waitFor(50, TimeUnit.MILLISECONDS); // a poll interval that ends early if it dies
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static Path binary() {
        String configured = System.getenv("ETCD_BIN");
        if (configured != null && !configured.isBlank()) return Paths.get(configured);
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Paths.get(dir, "etcd");
            if (Files.isExecutable(candidate)) return candidate;
        }
        for (String dir : List.of("/usr/bin", "/usr/local/bin")) {
            Path candidate = Paths.get(dir, "etcd");
            if (Files.isExecutable(candidate)) return candidate;
        }
        throw new IllegalStateException("the fleet tests need etcd: apt-get install etcd-server (or set ETCD_BIN); ./run-tests installs it");
    }

    private void destroy() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        if (dataDir != null) {
            try {
                FileTrees.delete(dataDir);
            } catch (IOException e) {
                // best effort: the data lives on tmpfs
            }
        }
    }

    @Override
    public void close() {
        destroy();
    }
}
