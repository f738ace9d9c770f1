package io.muster.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.Graphs;
import io.muster.agent.testing.LocalEtcd;
import io.muster.engine.exports.ExportedResource;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.resource.Kinds;
import io.muster.proto.fleet.Collected;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exported resources across agents on a real etcd: web hosts export their backend line, a load balancer collects
 * them into its pool directory, live; a host that dies leaves the pool; rogue exports are rejected and reported.
 */
@ExtendWith(LocalEtcd.class)
class ExportsAgentTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Duration LEASE_TTL = Duration.ofSeconds(2);

    private final LocalEtcd local;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final String namespace = LocalEtcd.uniqueNamespace("exports");
    private final Etcd etcd;
    private int bundles;

    @TempDir
    Path dir;

    ExportsAgentTest(LocalEtcd local) throws Exception {
        this.local = local;
        this.etcd = Etcd.connect(options());
    }

    private EtcdOptions options() {
        return EtcdOptions.of(local.endpoint(), namespace, Duration.ofSeconds(2));
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened.reversed()) c.close();
        etcd.close();
    }

    /** An agent for {@code host} on a client of its own, running {@code yaml}. */
    private Agent agent(String host, String yaml) throws Exception {
        return agent(host, yaml, Etcd.client(options()));
    }

    private Agent agent(String host, String yaml, Etcd client) throws Exception {
        AgentOptions options = new AgentOptions(host, dir.resolve("prefix-" + host), Map.of(), LEASE_TTL, 0.3, 4);
        Agent agent = new Agent(options, client, new CodecGraphDecoder(Kinds.installed()), new Metrics());
        opened.add(client);
        opened.add(agent);
        agent.start();
        deploy(host, yaml);
        return agent;
    }

    private void deploy(String host, String yaml) throws Exception {
        String sha = Graphs.publish(etcd, host, dir.resolve("bundle-" + ++bundles), yaml);
        Graphs.point(etcd, host, GraphPointer.newBuilder().setDeploy(bundles).setGraph(sha).build());
    }

    private HostStatus status(String host) throws Exception {
        Optional<KeyValue> kv = etcd.await(etcd.kv().get(Keys.status(host))).getKvs().stream().findFirst();
        return kv.isEmpty() ? HostStatus.getDefaultInstance() : HostStatus.parseFrom(kv.get().getValue().getBytes());
    }

    private Path pool() {
        return dir.resolve("pool");
    }

    /** The load balancer: its pool directory, and a file in it per web host's export. */
    private String lb(String extraBlocks) {
        return """
                resources:
                  - file: [{POOL: {ensure: directory}}]
                collect:
                  - kind: file
                    tags: [pool]
                    from: ["web*", "rogue*"]
                    allow: {paths: [POOL]}
                    meta: {reverse: true}
                """.replace("POOL", pool().toString()) + extraBlocks;
    }

    /** A web host exporting its backend line, rendered from a value its own run produces. */
    private String web(String host, String address, String to) {
        return """
                resources:
                  - exec: [{address: {command: "echo ADDRESS"}}]
                  - file:
                      - backend:
                          path: POOL/HOST
                          content: "server HOST {{ lookup('exec#address.stdout') }}:8080\\n"
                          meta: {export: {tags: [pool], to: TO}}
                """.replace("POOL", pool().toString()).replace("HOST", host).replace("ADDRESS", address).replace("TO", to);
    }

    @Test
    void theBalancerCollectsEveryBackendLiveAndADeadWebHostLeavesThePoolWithinItsLeaseTtl() throws Exception {
        agent("lb1", lb(""));
        agent("web1", web("web1", "10.0.0.1", "[]"));
        Etcd web2Client = Etcd.client(options());
        Agent web2 = agent("web2", web("web2", "10.0.0.2", "[]"), web2Client);

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(pool().resolve("web1")).hasContent("server web1 10.0.0.1:8080");
            assertThat(pool().resolve("web2")).hasContent("server web2 10.0.0.2:8080");
        });
        assertThat(pool().resolve("backend")).as("an export is not applied on its exporter, and runs under its own path here").doesNotExist();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(status("lb1").getCollectedList()).extracting(Collected::getId)
                .containsExactlyInAnyOrder("file#backend@web1", "file#backend@web2"));

        deploy("web1", web("web1", "10.0.0.11", "[]"));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pool().resolve("web1")).hasContent("server web1 10.0.0.11:8080"));

        web2Client.close(); // as kill -9: nothing revokes its lease, which ends after its TTL
        long killed = System.nanoTime();
        await().atMost(LEASE_TTL.plusSeconds(2).plusMillis(500)).until(() -> !Files.exists(pool().resolve("web2")));
        assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThanOrEqualTo(LEASE_TTL.plusSeconds(2).plusMillis(500));
        web2.close();
        assertThat(pool().resolve("web1")).as("the rest of the pool stays").exists();

        deploy("web1", "resources: []");
        await().atMost(PATIENCE).until(() -> !Files.exists(pool().resolve("web1")));
    }

    @Test
    void rogueExportsAreRejectedAndReportedWithTheExporterAndTheRule() throws Exception {
        agent("lb1", lb("""
                  - kind: exec
                    tags: [pool]
                """));
        agent("rogue1", """
                resources:
                  - file:
                      - /etc/cron.d/rogue: {content: "* * * * * root sh -c evil\\n", meta: {export: {tags: [pool]}}}
                  - exec:
                      - evil: {command: "touch %s", meta: {export: {tags: [pool]}}}
                """.formatted(dir.resolve("pwned")));
        agent("web1", web("web1", "10.0.0.1", "[]"));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(status("lb1").getCollectedList())
                .extracting(c -> c.getExporter() + " " + c.getId() + ": " + c.getRejected().replaceAll(" \\(collect at .*\\)$", ""))
                .containsExactlyInAnyOrder(
                        "rogue1 file#/etc/cron.d/rogue@rogue1: /etc/cron.d/rogue is outside allow.paths [" + pool() + "]",
                        "rogue1 exec#evil@rogue1: exec runs commands: collected only when allow.kinds names it",
                        "web1 file#backend@web1: "));
        assertThat(status("lb1").getCollectedList()).filteredOn(c -> !c.getRejected().isEmpty())
                .allSatisfy(c -> assertThat(c.getRejected()).as("the block's place in the bundle, as the coordinator names it")
                        .matches(".*\\(collect at site\\.yaml:\\d+:\\d+\\)"));
        assertThat(pool().resolve("web1")).hasContent("server web1 10.0.0.1:8080");
        assertThat(dir.resolve("pwned")).as("neither on the collector nor on the exporter").doesNotExist();
    }

    @Test
    void anExportGoesOnlyToTheHostsItsToPatternsName() throws Exception {
        Path lb2Pool = dir.resolve("pool2");
        agent("lb1", lb(""));
        agent("lb2", lb("").replace(pool().toString(), lb2Pool.toString()));
        agent("web1", web("web1", "10.0.0.1", "[lb2]").replace(pool().toString(), lb2Pool.toString()));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(lb2Pool.resolve("web1")).hasContent("server web1 10.0.0.1:8080"));
        assertThat(status("lb1").getCollectedList()).as("not meant for lb1: not even matched").isEmpty();
    }

    @Test
    void anExportAppearingChangingOrDisappearingReachesTheCollectorWithinTwoSeconds() throws Exception {
        agent("lb1", lb(""));
        await().atMost(PATIENCE).until(() -> Files.isDirectory(pool()) && status("lb1").getConverged());
        Path backend = pool().resolve("web9");
        for (String content : List.of("server web9 10.0.0.9:8080\n", "server web9 10.0.0.99:8080\n")) {
            publish("web9", new ExportedResource("file", "backend", Map.of("path", backend.toString(), "content", content),
                    List.of("pool"), List.of()).encode());
            await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(backend).hasContent(content.strip()));
        }
        etcd.await(etcd.kv().delete(Keys.exported("file", "web9", "backend")));
        await().atMost(Duration.ofSeconds(2)).until(() -> !Files.exists(backend));
    }

    /** An export written as {@code host}'s agent writes it, bound to a lease (the test deletes it). */
    private void publish(String host, String content) throws Exception {
        long lease = etcd.await(etcd.jetcd().getLeaseClient().grant(60)).getID();
        etcd.await(etcd.kv().put(Keys.exported("file", host, "backend"), ByteSequence.from(content, StandardCharsets.UTF_8),
                PutOption.builder().withLeaseId(lease).build()));
    }

    @Test
    void anExportBoundToNoLeaseIsNotCollected() throws Exception {
        agent("lb1", lb(""));
        await().atMost(PATIENCE).until(() -> Files.isDirectory(pool()) && status("lb1").getConverged());
        etcd.await(etcd.kv().put(Keys.exported("file", "web8", "backend"), ByteSequence.from(new ExportedResource("file", "backend",
                Map.of("path", pool().resolve("web8").toString(), "content", "unbound"), List.of("pool"), List.of()).encode(), StandardCharsets.UTF_8)));
        publish("web9", new ExportedResource("file", "backend", Map.of("path", pool().resolve("web9").toString(), "content", "bound"),
                List.of("pool"), List.of()).encode());
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(pool().resolve("web9")).hasContent("bound");
            assertThat(status("lb1").getCollectedList()).extracting(c -> c.getExporter()).containsExactly("web9");
        });
        assertThat(pool().resolve("web8")).as("it would outlive its host").doesNotExist();
    }
}
