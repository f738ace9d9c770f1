package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.Facts;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.value.ValueMap;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code muster coordinator} as real processes: failover on kill -9, a clean stop on SIGTERM, {@code --dev}. */
@ExtendWith(LocalEtcd.class)
class CoordinatorProcessTest {
    @TempDir
    Path dir;

    private static GraphPointer pointer(Etcd etcd, String host) throws Exception {
        KeyValue kv = etcd.await(etcd.kv().get(Keys.graphPointer(host))).getKvs().stream().findFirst().orElse(null);
        return kv == null ? null : GraphPointer.parseFrom(kv.getValue().getBytes());
    }

    private static void register(Etcd etcd, String host) throws Exception {
        etcd.await(etcd.kv().put(Keys.facts(host), ByteSequence.from(Facts.newBuilder().setFacts(ValueMap.getDefaultInstance()).build().toByteArray())));
        etcd.await(etcd.kv().put(Keys.alive(host), ByteSequence.from(Alive.getDefaultInstance().toByteArray())));
    }

    private Path bundle(String content) throws Exception {
        Path bundle = Files.createDirectories(dir.resolve("bundle"));
        Files.writeString(bundle.resolve("site.yaml"), "resources:\n  - file: {name: /tmp/muster-coordinator-process-test, content: \"" + content + "\"}\n");
        return bundle;
    }

    @Test
    void whenTheLeadingProcessIsKilledAnotherTakesOverWithinTheLeaseTtl(LocalEtcd local) throws Exception {
        String namespace = LocalEtcd.uniqueNamespace("process");
        Object[] fleet = {"--etcd", local.endpoint(), "--namespace", namespace};
        try (Etcd etcd = Etcd.connect(EtcdOptions.of(local.endpoint(), namespace, Duration.ofSeconds(5)));
             MusterProcess a = MusterProcess.start(dir, "a", "coordinator", "--name", "a", "--lease-ttl", "2", "--prefix", dir.resolve("a"), fleet[0], fleet[1], fleet[2], fleet[3])) {
            register(etcd, "h1");
            await().atMost(Duration.ofSeconds(30)).until(() -> a.err().contains("a leads"));
            try (MusterProcess b = MusterProcess.start(dir, "b", "coordinator", "--name", "b", "--lease-ttl", "2", "--prefix", dir.resolve("b"), fleet[0], fleet[1], fleet[2], fleet[3])) {
                assertThat(Cli.run("deploy", bundle("one"), fleet[0], fleet[1], fleet[2], fleet[3]).out()).isEqualTo("1\n");
                await().atMost(Duration.ofSeconds(20)).until(() -> pointer(etcd, "h1"), p -> p != null && p.getDeploy() == 1);

                a.kill();
                await().atMost(Duration.ofSeconds(15)).until(() -> b.err().contains("b leads"));
                assertThat(Cli.run("deploy", bundle("two"), fleet[0], fleet[1], fleet[2], fleet[3]).out()).isEqualTo("2\n");
                await().atMost(Duration.ofSeconds(20)).until(() -> pointer(etcd, "h1"), p -> p.getDeploy() == 2);
                assertThat(etcd.await(etcd.kv().get(Keys.graphPointer("h1"))).getKvs().getFirst().getVersion())
                        .as("one write per deploy").isEqualTo(2);

                b.terminate();
                assertThat(b.awaitExit(Duration.ofSeconds(20))).isZero();
            }
        }
    }

    /** A client URL on a loopback port nothing listens on now, for a --dev etcd. */
    private static String freeEndpoint() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    @Test
    void devStartsAPrivateEtcdAndStopsItOnSigterm() throws Exception {
        String endpoint = freeEndpoint();
        try (MusterProcess dev = MusterProcess.start(dir, "dev", "coordinator", "--dev", "--etcd", endpoint, "--prefix", dir.resolve("state"))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> dev.out().contains("etcd for the fleet: " + endpoint));
            assertThat(Files.isDirectory(dir.resolve("state/dev-etcd/data"))).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> dev.err().contains(" leads"));
            assertThat(Cli.run("deploy", bundle("dev"), "--etcd", endpoint).out()).isEqualTo("1\n");
            assertThat(Cli.run("status", "--etcd", endpoint).out()).startsWith("current deploy: 1\n");
            dev.terminate();
            assertThat(dev.awaitExit(Duration.ofSeconds(20))).isZero();
            assertThat(dev.leftovers()).as("its etcd is stopped too").isEmpty();
        }
    }

    @Test
    void devStartedAgainAfterAKillStopsTheEtcdItsKilledRunLeft() throws Exception {
        String endpoint = freeEndpoint();
        Object[] args = {"coordinator", "--dev", "--etcd", endpoint, "--prefix", dir.resolve("state")};
        try (MusterProcess killed = MusterProcess.start(dir, "dev", args)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> killed.err().contains(" leads"));
            assertThat(Cli.run("deploy", bundle("dev"), "--etcd", endpoint).out()).isEqualTo("1\n");
            killed.kill(); // its etcd lives on, holding the port and the data directory
            try (MusterProcess again = MusterProcess.start(dir, "dev-again", args)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> again.err().contains(" leads") || !again.isAlive());
                assertThat(again.isAlive()).as(again.err()).isTrue();
                assertThat(Cli.run("deploys", "--etcd", endpoint).out()).as("the same data").startsWith("* 1 ");
                again.terminate();
                assertThat(again.awaitExit(Duration.ofSeconds(20))).isZero();
            }
        }
    }

    @Test
    void devWithoutEtcdOnThePathNamesThePackage() throws Exception {
        try (MusterProcess dev = MusterProcess.start(dir, "dev", Map.of("PATH", dir.toString()), "coordinator", "--dev", "--prefix", dir.resolve("state"))) {
            assertThat(dev.awaitExit(Duration.ofSeconds(20))).isEqualTo(1);
            assertThat(dev.err()).contains("muster: --dev needs the etcd binary on PATH: apt-get install etcd-server");
        }
    }
}
