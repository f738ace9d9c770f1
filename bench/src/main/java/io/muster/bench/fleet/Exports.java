package io.muster.bench.fleet;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.Agent;
import io.muster.agent.AgentOptions;
import io.muster.agent.CodecGraphDecoder;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.dev.DevEtcd;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.compile.CompileOptions;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.exports.ExportedResource;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.resource.Kinds;
import io.muster.proto.fleet.GraphPointer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The harness of bench/exports.sh: one real agent (the collector, {@code lb}) whose manifest collects every
 * {@code file} tagged {@code pool} into its pool directory, and N simulated exporters ({@code e0001} …), each
 * with a lease of its own and one export written as an agent's World writes it. Measures, on the collector's
 * disk: all N files there from the moment the N exports are written; one export's change arriving. One JSON
 * object on stdout.
 */
public final class Exports {
    private static final String NAMESPACE = "/bench-exports/";
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final long LEASE_TTL_SECONDS = 60;

    private final int n;
    private final Path work;
    private final Etcd etcd;

    private Exports(int n, Path work, String endpoint) throws Exception {
        this.n = n;
        this.work = work;
        this.etcd = Etcd.connect(EtcdOptions.of(endpoint, NAMESPACE, Duration.ofSeconds(10)));
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: Exports N WORK_DIR");
            System.exit(64);
        }
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(ch.qos.logback.classic.Level.WARN);
        int n = Integer.parseInt(args[0]);
        Path work = Path.of(args[1]);
        String endpoint = "http://127.0.0.1:" + Fleet.freePort();
        int status = 0;
        try (DevEtcd server = DevEtcd.start(URI.create(endpoint), work.resolve("etcd"))) {
            Exports bench = new Exports(n, work, endpoint);
            System.out.println(bench.run());
            bench.etcd.close();
        } catch (Exception e) {
            e.printStackTrace();
            status = 2;
        }
        System.exit(status); // gRPC's threads would keep the JVM
    }

    private Json run() throws Exception {
        Path pool = work.resolve("pool");
        AgentOptions options = new AgentOptions("lb", work.resolve("lb-state"), Map.of(), AgentOptions.DEFAULT_LEASE_TTL,
                SimulatedHosts.QUIET_SECONDS, Runtime.getRuntime().availableProcessors());
        try (Agent collector = new Agent(options, etcd, new CodecGraphDecoder(Kinds.installed()), new Metrics())) {
            collector.start();
            deployCollector(pool);
            await("the collector's pool directory", () -> Files.isDirectory(pool));
            log("writing " + n + " exports");
            List<Long> leases = leases();
            long start = System.nanoTime();
            List<CompletableFuture<?>> writes = new ArrayList<>();
            for (int i = 1; i <= n; i++) writes.add(export(i, leases.get(i - 1), "server " + exporter(i) + ":8080\n"));
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get();
            long written = System.nanoTime() - start;
            await(n + " files in the pool", () -> count(pool) == n);
            long converged = System.nanoTime() - start;
            log("all " + n + " collected; changing one");
            Path one = pool.resolve(exporter(n / 2 + 1));
            long changeStart = System.nanoTime();
            export(n / 2 + 1, leases.get(n / 2), "server changed:9090\n").get();
            await("the change", () -> Files.readString(one).equals("server changed:9090\n"));
            long changed = System.nanoTime() - changeStart;
            return new Json().put("exporters", n).put("written_ms", written / 1e6).put("converged_ms", converged / 1e6)
                    .put("change_ms", changed / 1e6);
        }
    }

    /** Publishes the collector's graph: its pool directory, and a collect block for every exporter's backend file. */
    private void deployCollector(Path pool) throws Exception {
        Path bundle = Files.createDirectories(work.resolve("bundle"));
        Path manifest = Files.writeString(bundle.resolve("site.yaml"), """
                resources:
                  - file: [{POOL: {ensure: directory}}]
                collect:
                  - {kind: file, tags: [pool], from: ["e*"], allow: {paths: [POOL]}, meta: {reverse: true}}
                """.replace("POOL", pool.toString()));
        GraphCodec.Encoded graph = GraphCodec.encode(new ManifestCompiler(new CompileOptions(Map.of(), Map.of(), Map.of())).compile(manifest));
        new ContentStore(etcd).put(Keys.graph("lb", graph.sha256()), graph.bytes());
        etcd.await(etcd.kv().put(Keys.graphPointer("lb"),
                ByteSequence.from(GraphPointer.newBuilder().setDeploy(1).setGraph(graph.sha256()).build().toByteArray())));
    }

    /** A lease per exporter, as each agent has one. */
    private List<Long> leases() throws Exception {
        List<CompletableFuture<LeaseGrantResponse>> grants = new ArrayList<>();
        for (int i = 0; i < n; i++) grants.add(etcd.jetcd().getLeaseClient().grant(LEASE_TTL_SECONDS));
        List<Long> leases = new ArrayList<>();
        for (var grant : grants) leases.add(grant.get().getID());
        return leases;
    }

    /** Exporter {@code i}'s export of its backend file, bound to its lease. */
    private CompletableFuture<?> export(int i, long lease, String content) {
        String host = exporter(i);
        String path = work.resolve("pool").resolve(host).toString();
        String value = new ExportedResource("file", "backend", Map.of("path", path, "content", content), List.of("pool"), List.of()).encode();
        return etcd.kv().txn().Then(Op.put(Keys.exported("file", host, "backend"), ByteSequence.from(value, StandardCharsets.UTF_8),
                PutOption.builder().withLeaseId(lease).build())).commit();
    }

    private static String exporter(int i) {
        return String.format("e%04d", i);
    }

    private static long count(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.count();
        }
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code condition} every 10 ms, at most {@link #PATIENCE}. */
    private static void await(String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("waited " + PATIENCE.toSeconds() + " s for " + what);
            Thread.sleep(10);
        }
    }

    private static void log(String message) {
        System.err.println("exports: " + message);
    }
}
