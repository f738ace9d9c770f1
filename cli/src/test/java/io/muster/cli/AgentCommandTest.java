package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.agent.testing.Graphs;
import io.muster.proto.fleet.Facts;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.value.Value;
import io.muster.proto.value.ValueMap;
import io.muster.proto.fleet.HostStatus;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code muster agent} as a real process against a real etcd: --once exit codes, bad input, an unreachable etcd, stopping. */
@ExtendWith(LocalEtcd.class)
class AgentCommandTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final LocalEtcd local;
    private final String namespace = LocalEtcd.uniqueNamespace("cli-agent");
    private final Etcd etcd;
    private final List<MusterProcess> started = new ArrayList<>();

    @TempDir
    Path dir;

    AgentCommandTest(LocalEtcd local) throws Exception {
        this.local = local;
        this.etcd = Etcd.connect(EtcdOptions.of(local.endpoint(), namespace, Duration.ofSeconds(5)));
    }

    @AfterEach
    void close() throws Exception {
        for (MusterProcess m : started) m.close();
        etcd.close();
    }

    private MusterProcess agent(String host, Object... more) throws Exception {
        List<Object> args = new ArrayList<>(List.of("agent", "--etcd", local.endpoint(), "--namespace", namespace, "--host", host,
                "--prefix", dir.resolve("prefix-" + host), "--lease-ttl", 2));
        args.addAll(List.of(more));
        MusterProcess agent = MusterProcess.start(dir, host + "-" + started.size(), args.toArray());
        started.add(agent);
        return agent;
    }

    private int bundles;

    private void deploy(String host, long deploy, String yaml) throws Exception {
        String sha = Graphs.publish(etcd, host, dir.resolve("bundle-" + ++bundles), yaml);
        Graphs.point(etcd, host, GraphPointer.newBuilder().setDeploy(deploy).setGraph(sha).build());
    }

    private Optional<KeyValue> get(io.etcd.jetcd.ByteSequence key) throws Exception {
        return etcd.await(etcd.kv().get(key)).getKvs().stream().findFirst();
    }

    @Test
    void onceExitsZeroWhenTheFirstGraphConvergedAndItsStatusIsWritten() throws Exception {
        deploy("web1", 1, """
                resources:
                  - file:
                      - "%s/motd": {content: "hello\\n"}
                """.formatted(dir));

        Files.writeString(dir.resolve("facts.yaml"), "role: db\ndc: {name: fra1}\n");
        MusterProcess agent = agent("web1", "--once", "--facts", dir.resolve("facts.yaml"), "--fact", "role=web", "--fact", "dc.rack=7");

        assertThat(agent.awaitExit(PATIENCE)).as(agent.err()).isZero();
        assertThat(agent.out()).isEqualTo("web1: converged (deploy 1)\n");
        assertThat(Files.readString(dir.resolve("motd"))).isEqualTo("hello\n");
        HostStatus status = HostStatus.parseFrom(get(Keys.status("web1")).orElseThrow().getValue().getBytes());
        assertThat(status.getConverged()).isTrue();
        assertThat(status.getDeploy()).isEqualTo(1);
        assertThat(get(Keys.alive("web1"))).as("the lease is revoked as the agent exits").isEmpty();
        ValueMap facts = Facts.parseFrom(get(Keys.facts("web1")).orElseThrow().getValue().getBytes()).getFacts();
        assertThat(fact(facts, "role").getText()).as("--fact wins over --facts").isEqualTo("web");
        ValueMap dc = fact(facts, "dc").getMap();
        assertThat(fact(dc, "name").getText()).isEqualTo("fra1");
        assertThat(fact(dc, "rack").getInteger()).as("dotted keys nest").isEqualTo(7);
        assertThat(agent.err()).doesNotContain("Exception").doesNotContain("Epoll");
    }

    private static Value fact(ValueMap map, String key) {
        return map.getEntriesList().stream().filter(e -> e.getKey().equals(key)).findFirst().orElseThrow().getValue();
    }

    @Test
    void aRestartedAgentRunsTheNewGraphFromEtcdOrTheOneKeptOnDiskWhenEtcdIsUnreachable() throws Exception {
        deploy("web5", 1, "resources: [{file: [{\"%s/v\": {content: one}}, {\"%s/w\": {content: old}}]}]".formatted(dir, dir));
        assertThat(agent("web5", "--once").awaitExit(PATIENCE)).isZero();
        deploy("web5", 2, "resources: [{file: [{\"%s/v\": {content: two}}]}]".formatted(dir));
        Files.delete(dir.resolve("w"));

        MusterProcess again = agent("web5", "--once");
        assertThat(again.awaitExit(PATIENCE)).as(again.err()).isZero();
        assertThat(again.out()).isEqualTo("web5: converged (deploy 2)\n");
        assertThat(Files.readString(dir.resolve("v"))).isEqualTo("two");
        assertThat(dir.resolve("w")).as("--once with etcd at hand never runs the graph kept from the last run").doesNotExist();

        Files.writeString(dir.resolve("v"), "drifted");
        MusterProcess offline = MusterProcess.start(dir, "offline", "agent", "--etcd", "127.0.0.1:1", "--host", "web5",
                "--prefix", dir.resolve("prefix-web5"), "--connect-timeout", "1", "--once");
        assertThat(offline.awaitExit(PATIENCE)).as(offline.err()).isZero();
        assertThat(offline.out()).isEqualTo("web5: converged (deploy 2)\n");
        assertThat(Files.readString(dir.resolve("v"))).isEqualTo("two");
        assertThat(offline.err()).contains("cannot reach etcd at http://127.0.0.1:1").doesNotContain("Exception");
    }

    @Test
    void onceExitsOneNamingTheFailedResource() throws Exception {
        Files.writeString(dir.resolve("plain"), "a file\n");
        deploy("web2", 1, """
                resources:
                  - file:
                      - "%s/plain/child": {content: "x"}
                """.formatted(dir));

        MusterProcess agent = agent("web2", "--once");

        assertThat(agent.awaitExit(PATIENCE)).as(agent.err()).isEqualTo(1);
        assertThat(agent.out()).startsWith("web2: failed (deploy 1)\n  file#" + dir + "/plain/child: ");
    }

    @Test
    void onceExitsOneWhenNotConvergedInTime() throws Exception {
        MusterProcess agent = agent("idle", "--once", "--converged-timeout", "1");

        assertThat(agent.awaitExit(PATIENCE)).as(agent.err()).isEqualTo(1);
        assertThat(agent.out()).isEqualTo("idle: not converged within 1 s\n");
    }

    @Test
    void anUnreachableEtcdWithNoLocalGraphIsOneLineAndExitOneWithinTheConnectTimeout() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        MusterProcess agent = MusterProcess.start(dir, "unreachable", "agent", "--etcd", "127.0.0.1:" + closed, "--host", "web1",
                "--prefix", dir.resolve("prefix"), "--connect-timeout", "2");

        assertThat(agent.awaitExit(Duration.ofSeconds(15))).isEqualTo(1);
        assertThat(agent.err()).matches("muster: cannot reach etcd at http://127\\.0\\.0\\.1:" + closed + ": [^\\n]+\\n");
    }

    @Test
    void aBadHostNameIsAUsageErrorAndNothingIsWritten() throws Exception {
        MusterProcess agent = MusterProcess.start(dir, "bad", "agent", "--etcd", local.endpoint(), "--namespace", namespace,
                "--host", "web 1/../x", "--prefix", dir.resolve("prefix"));

        assertThat(agent.awaitExit(PATIENCE)).isEqualTo(64);
        assertThat(agent.err()).startsWith("muster: --host: invalid host name 'web 1/../x': expected letters, digits and . _ - :");
        assertThat(dir.resolve("prefix")).doesNotExist();
        assertThat(etcd.await(etcd.kv().get(Keys.HOSTS, io.etcd.jetcd.options.GetOption.builder().isPrefix(true).build())).getKvs()).isEmpty();
    }

    @Test
    void sigtermRevokesTheLeaseAndAKilledAgentsAliveKeyExpiresWithIt() throws Exception {
        MusterProcess stopped = agent("web3");
        MusterProcess killed = agent("web4");
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web3")).isPresent() && get(Keys.alive("web4")).isPresent());

        stopped.terminate();
        assertThat(stopped.awaitExit(PATIENCE)).isZero();
        assertThat(get(Keys.alive("web3"))).as("gone at once").isEmpty();

        killed.kill();
        assertThat(get(Keys.alive("web4"))).as("still there until its lease expires").isPresent();
        await().atMost(Duration.ofSeconds(10)).until(() -> get(Keys.alive("web4")).isEmpty());
    }

    @Test
    void withStopOnStdinEofTheAgentGoesWhenItsStdinEnds() throws Exception {
        // MusterProcess gives muster /dev/null for stdin: it ends at once, as an SSH session's does when the connection drops
        MusterProcess agent = agent("web6", "--once", "--stop-on-stdin-eof", "--converged-timeout", "60");

        assertThat(agent.awaitExit(PATIENCE)).as("long before --converged-timeout").isEqualTo(1);
        assertThat(agent.err()).contains("muster: stopping (stdin closed)");
        assertThat(get(Keys.alive("web6"))).as("its lease revoked").isEmpty();
    }
}
