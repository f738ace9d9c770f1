package io.muster.coordinator.dev;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The private etcd of {@code muster coordinator --dev}: the {@code etcd} binary on PATH, serving the given
 * client URL, its data, log and pid in a directory of the state prefix, stopped with the coordinator (or, after
 * a kill -9 of the coordinator, by its next start). Ready when
 * this process answers with its own member name: a naive health check would be answered by another etcd
 * already holding the port.
 */
public final class DevEtcd implements AutoCloseable {
    private static final String NAME = "muster-dev";
    private static final Duration READY_WITHIN = Duration.ofSeconds(30);

    private final Process process;

    private DevEtcd(Process process) {
        this.process = process;
    }

    /**
     * Starts etcd on {@code client} with its data in {@code dir}/data and its log in {@code dir}/etcd.log.
     *
     * @throws IOException naming the Debian package when there is no etcd on PATH, or the log when it does not start
     */
    public static DevEtcd start(URI client, Path dir) throws IOException, InterruptedException {
        return start(client, dir, List.of());
    }

    /**
     * Starts etcd as {@link #start(URI, Path)} does, with {@code tlsFlags} (its certificate, and clients'
     * certificates required) for an {@code https://} URL.
     */
    public static DevEtcd start(URI client, Path dir, List<String> tlsFlags) throws IOException, InterruptedException {
        Path binary = binary();
        Files.createDirectories(dir);
        Path pidFile = dir.resolve("etcd.pid");
        stopLeftover(pidFile, dir.resolve("data"));
        Path log = dir.resolve("etcd.log");
        String peer = "http://127.0.0.1:" + freePort();
        String url = client.getScheme() + "://" + client.getHost() + ":" + client.getPort();
        String metrics = "http://127.0.0.1:" + freePort();
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--name", NAME, "--data-dir", dir.resolve("data").toString(),
                "--listen-client-urls", url, "--advertise-client-urls", url,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--listen-metrics-urls", metrics,
                "--initial-cluster", NAME + "=" + peer, "--initial-cluster-state", "new",
                "--logger", "zap", "--log-outputs", "stderr", "--log-level", "warn"));
        command.addAll(tlsFlags);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Files.writeString(pidFile, process.pid() + "\n");
        DevEtcd etcd = new DevEtcd(process);
        // a client needs a certificate to ask an etcd with TLS who it is: its health is asked on the metrics URL
        boolean ready = tlsFlags.isEmpty()
                ? etcd.ready(HttpRequest.newBuilder(URI.create(url + "/v3/cluster/member/list")).POST(HttpRequest.BodyPublishers.ofString("{}")), "\"" + NAME + "\"")
                : etcd.ready(HttpRequest.newBuilder(URI.create(metrics + "/health")).GET(), "\"health\":\"true\"");
        if (!ready) {
            etcd.close();
            List<String> lines = Files.readAllLines(log);
            String last = lines.isEmpty() ? "(no log)" : lines.getLast();
            throw new IOException("etcd did not start on " + url + " (is the port taken?); its log " + log + " ends: " + last);
        }
        return etcd;
    }

    /**
     * Stops the etcd a previous run left when it was killed (kill -9 leaves its children running): it would hold
     * the port and the data directory. Only a live process that is etcd serving {@code data} is stopped, not one
     * that took the pid since.
     */
    private static void stopLeftover(Path pidFile, Path data) throws IOException, InterruptedException {
        if (!Files.exists(pidFile)) return;
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile).strip());
        } catch (NumberFormatException e) {
            return;
        }
        Optional<ProcessHandle> left = ProcessHandle.of(pid).filter(p -> p.info().arguments()
                .map(args -> List.of(args).contains(data.toString())).orElse(false));
        if (left.isEmpty()) return;
        left.get().destroy();
        try {
            left.get().onExit().get(5, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            left.get().destroyForcibly();
            left.get().onExit().join();
        }
    }

    /** Sends {@code request} until its answer contains {@code answer}. */
    private boolean ready(HttpRequest.Builder poll, String answer) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = poll.timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains(answer)) return process.isAlive();
            } catch (IOException notYet) {
                // not listening yet
            }
            process.waitFor(100, TimeUnit.MILLISECONDS); // a poll interval that ends early if it exits
        }
        return false;
    }

    private static Path binary() throws IOException {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (dir.isEmpty()) continue;
            Path candidate = Path.of(dir, "etcd");
            if (Files.isExecutable(candidate)) return candidate;
        }
        throw new IOException("--dev needs the etcd binary on PATH: apt-get install etcd-server");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
}
