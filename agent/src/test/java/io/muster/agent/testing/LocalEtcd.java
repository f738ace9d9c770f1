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
    private int clientPort;
    private int peerPort;
    private Process process;

    /** For JUnit: the extension instance; the etcd itself lives in the root store. */
    public LocalEtcd() {
        this.binary = null;
        this.dataDir = null;
        this.log = null;
        this.name = null;
    }

    private LocalEtcd(Path binary) throws IOException {
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
            LocalEtcd etcd = new LocalEtcd(binary());
            etcd.start();
            Runtime.getRuntime().addShutdownHook(new Thread(etcd::destroy));
            return etcd;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The client URL, e.g. {@code http://127.0.0.1:43121}. */
    public String endpoint() {
        return "http://127.0.0.1:" + clientPort;
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
        return new ProcessBuilder(binary.toString(), "--name", name, "--data-dir", dataDir.toString(),
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", name + "=" + peer, "--initial-cluster-state", "new",
                "--logger", "zap", "--log-outputs", "stderr", "--log-level", "warn")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    /**
     * Ready when our own process answers with our member name: a naive health poll would be answered by
     * another etcd that holds the port we failed to bind.
     */
    private boolean awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest members = HttpRequest.newBuilder(URI.create(endpoint() + "/v3/cluster/member/list"))
                .timeout(Duration.ofSeconds(2)).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) return false;
            try {
                HttpResponse<String> response = http.send(members, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"" + name + "\"")) return true;
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
