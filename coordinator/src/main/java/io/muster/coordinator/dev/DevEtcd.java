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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The private etcd of {@code muster coordinator --dev}: the {@code etcd} binary on PATH, serving the given
 * client URL, its data and log in a directory of the state prefix, stopped with the coordinator. Ready when
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
        Path binary = binary();
        Files.createDirectories(dir);
        Path log = dir.resolve("etcd.log");
        String peer = "http://127.0.0.1:" + freePort();
        String url = client.getScheme() + "://" + client.getHost() + ":" + client.getPort();
        Process process = new ProcessBuilder(binary.toString(), "--name", NAME, "--data-dir", dir.resolve("data").toString(),
                "--listen-client-urls", url, "--advertise-client-urls", url,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", NAME + "=" + peer, "--initial-cluster-state", "new",
                "--logger", "zap", "--log-outputs", "stderr", "--log-level", "warn")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        DevEtcd etcd = new DevEtcd(process);
        if (!etcd.ready(URI.create(url + "/v3/cluster/member/list"))) {
            etcd.close();
            List<String> lines = Files.readAllLines(log);
            String last = lines.isEmpty() ? "(no log)" : lines.getLast();
            throw new IOException("etcd did not start on " + url + " (is the port taken?); its log " + log + " ends: " + last);
        }
        return etcd;
    }

    private boolean ready(URI members) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(members).timeout(Duration.ofSeconds(2)).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"" + NAME + "\"")) return process.isAlive();
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
