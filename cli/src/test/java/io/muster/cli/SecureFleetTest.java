package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdTls;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Keys;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The secure fleet as a user sets it up: {@code coordinator --dev} on an https:// etcd (client certificates, auth
 * on), {@code host add} for an agent, which joins with its certificate, runs its graph and reports; {@code host
 * rotate} renews its certificate and revokes the old one; {@code host remove} revokes it.
 */
class SecureFleetTest {
    @TempDir
    Path dir;

    private static String freeEndpoint() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "https://127.0.0.1:" + socket.getLocalPort();
        }
    }

    private Object[] as(String endpoint, Path cert, Path key, Path ca, Object... args) {
        Object[] all = new Object[args.length + 8];
        System.arraycopy(args, 0, all, 0, args.length);
        Object[] tls = {"--etcd", endpoint, "--etcd-cert", cert, "--etcd-key", key, "--etcd-ca", ca};
        System.arraycopy(tls, 0, all, args.length, tls.length);
        return all;
    }

    @Test
    void anAgentJoinsWithTheCertificateHostAddMadeAndHostRemoveRevokesIt() throws Exception {
        String endpoint = freeEndpoint();
        Path pki = dir.resolve("state/pki");
        Path bundle = Files.createDirectories(dir.resolve("bundle"));
        Files.writeString(bundle.resolve("site.yaml"), "resources:\n  - file: {name: \"" + dir.resolve("out") + "\", content: \"secure\\n\"}\n");
        try (MusterProcess coordinator = MusterProcess.start(dir, "coordinator", "coordinator", "--dev", "--etcd", endpoint, "--prefix", dir.resolve("state"))) {
            await().atMost(Duration.ofSeconds(40)).until(() -> coordinator.err().contains(" leads") || !coordinator.isAlive());
            assertThat(coordinator.out()).as(coordinator.err()).contains("as the coordinator: --etcd-cert " + pki.resolve("coordinator.crt"));

            Cli badName = Cli.run("host", "add", "web1/x", "--etcd", endpoint, "--pki", pki);
            assertThat(badName.exit()).isEqualTo(64);
            assertThat(badName.err()).as("the parameter, as the usage names it").startsWith("muster: NAME: invalid host name");
            Cli added = Cli.run("host", "add", "web1", "--etcd", endpoint, "--pki", pki, "--output", dir.resolve("web1"));
            assertThat(added.exit()).as(added.err()).isZero();
            assertThat(added.out()).contains("host web1 added; on it, run: muster agent --host web1 --etcd " + endpoint);
            assertThat(Files.getPosixFilePermissions(dir.resolve("web1/web1.key"))).hasToString("[OWNER_READ, OWNER_WRITE]");
            Path cert = dir.resolve("web1/web1.crt");
            Path key = dir.resolve("web1/web1.key");
            Path ca = dir.resolve("web1/ca.crt");

            try (MusterProcess agent = MusterProcess.start(dir, "web1", as(endpoint, cert, key, ca, "agent", "--host", "web1", "--prefix", dir.resolve("web1-state")))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> agent.err().contains("registered as web1") || !agent.isAlive());
                Cli deployed = Cli.run(as(endpoint, pki.resolve("coordinator.crt"), pki.resolve("coordinator.key"), pki.resolve("ca.crt"),
                        "deploy", bundle, "--wait", "--timeout", "60"));
                assertThat(deployed.exit()).as(deployed.err()).isZero();
                assertThat(deployed.out()).contains("web1: converged");
                Cli status = Cli.run(as(endpoint, pki.resolve("coordinator.crt"), pki.resolve("coordinator.key"), pki.resolve("ca.crt"), "status", "--host", "web1"));
                assertThat(status.out()).contains("web1 ").contains(" yes ");

                // a sensitive exec that fails printing its secret, and a file that reads it and is exported
                Files.writeString(bundle.resolve("site.yaml"), "resources:\n"
                        + "  - exec: [{leak: {command: \"echo s3cr3t-value; exit 3\", shell: true, sensitive: true}}]\n"
                        + "  - exec: [{secret: {command: \"echo s3cr3t-value\", shell: true, query: true, sensitive: true}}]\n"
                        + "  - file: [{shared: {path: \"" + dir.resolve("shared") + "\", content: \"${ lookup('exec#secret.stdout') }\", meta: {export: {}}}}]\n");
                Cli failing = Cli.run(as(endpoint, pki.resolve("coordinator.crt"), pki.resolve("coordinator.key"), pki.resolve("ca.crt"),
                        "deploy", bundle, "--wait", "--timeout", "60"));
                assertThat(failing.exit()).as(failing.out() + failing.err()).isEqualTo(2);
                assertThat(failing.out() + failing.err()).doesNotContain("s3cr3t");
                try (Etcd coordinatorClient = Etcd.client(EtcdOptions.of(endpoint, EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(5))
                        .withTls(new EtcdTls(pki.resolve("coordinator.crt"), pki.resolve("coordinator.key"), pki.resolve("ca.crt"))))) {
                    var hosts = coordinatorClient.await(coordinatorClient.kv().get(Keys.HOSTS, GetOption.builder().isPrefix(true).build())).getKvs();
                    assertThat(hosts).isNotEmpty();
                    for (var kv : hosts) {
                        assertThat(new String(kv.getValue().getBytes(), StandardCharsets.ISO_8859_1)).as(Keys.text(kv.getKey())).doesNotContain("s3cr3t");
                    }
                    var exported = coordinatorClient.await(coordinatorClient.kv().get(Keys.EXPORTED, GetOption.builder().isPrefix(true).build())).getKvs();
                    assertThat(exported).as("a resource with a sensitive value is not exported").isEmpty();
                }

                Cli asWeb1 = Cli.run(as(endpoint, cert, key, ca, "status"));
                assertThat(asWeb1.exit()).isEqualTo(1);
                assertThat(asWeb1.err()).as("a host reads no other host's status").contains("refused: permission denied");
                Cli anonymous = Cli.run("status", "--etcd", endpoint);
                assertThat(anonymous.exit()).isEqualTo(1);
                assertThat(anonymous.err()).contains("needs --etcd-cert, --etcd-key and --etcd-ca");

                Cli rotated = Cli.run("host", "rotate", "web1", "--etcd", endpoint, "--pki", pki, "--output", dir.resolve("web1-new"));
                assertThat(rotated.exit()).as(rotated.err()).isZero();
                assertThat(rotated.out()).contains("host web1 has a new certificate (1 revoked); on it, run: muster agent --host web1 --etcd " + endpoint);
                try (Etcd old = Etcd.client(EtcdOptions.of(endpoint, EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(5)).withTls(new EtcdTls(cert, key, ca)));
                     Etcd renewed = Etcd.client(EtcdOptions.of(endpoint, EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(5))
                             .withTls(new EtcdTls(dir.resolve("web1-new/web1.crt"), dir.resolve("web1-new/web1.key"), ca)))) {
                    assertThatThrownBy(() -> old.await(old.kv().put(Keys.status("web1"), ByteSequence.from(new byte[] {1}))))
                            .as("the rotated certificate, at a new connection").isInstanceOf(io.muster.agent.etcd.EtcdUnreachableException.class);
                    renewed.await(renewed.kv().put(Keys.status("web1"), ByteSequence.from(new byte[] {1})));
                }

                Cli removed = Cli.run("host", "remove", "web1", "--etcd", endpoint, "--pki", pki);
                assertThat(removed.exit()).as(removed.err()).isZero();
                assertThat(removed.out()).contains("host web1 removed: 1 certificate revoked, its registration and exports withdrawn");
                try (Etcd web1 = Etcd.client(EtcdOptions.of(endpoint, EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(5))
                        .withTls(new EtcdTls(dir.resolve("web1-new/web1.crt"), dir.resolve("web1-new/web1.key"), ca)))) {
                    assertThatThrownBy(() -> web1.await(web1.kv().put(Keys.status("web1"), ByteSequence.from(new byte[] {1}))))
                            .as("its certificate, revoked, at a new connection").isInstanceOf(io.muster.agent.etcd.EtcdUnreachableException.class);
                }
                assertThat(Cli.run("host", "remove", "web1", "--etcd", endpoint, "--pki", pki).exit()).isEqualTo(1);
                Cli afterRemoval = Cli.run(as(endpoint, pki.resolve("coordinator.crt"), pki.resolve("coordinator.key"), pki.resolve("ca.crt"),
                        "status", "--host", "web1", "--output", "json"));
                assertThat(afterRemoval.out()).as("its running agent keeps no registration: " + afterRemoval.err()).contains("\"alive\": false");

                Cli again = Cli.run("host", "add", "web1", "--etcd", endpoint, "--pki", pki, "--output", dir.resolve("web1-again"));
                assertThat(again.exit()).as(again.err()).isZero();
                try (Etcd removedCertificate = Etcd.client(EtcdOptions.of(endpoint, EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(5))
                        .withTls(new EtcdTls(dir.resolve("web1-new/web1.crt"), dir.resolve("web1-new/web1.key"), ca)));
                     Etcd readded = Etcd.client(EtcdOptions.of(endpoint, EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(5))
                             .withTls(new EtcdTls(dir.resolve("web1-again/web1.crt"), dir.resolve("web1-again/web1.key"), ca)))) {
                    assertThatThrownBy(() -> removedCertificate.await(removedCertificate.kv().put(Keys.status("web1"), ByteSequence.from(new byte[] {1}))))
                            .as("a certificate of the removed host, once its name is added again").isInstanceOf(io.muster.agent.etcd.EtcdUnreachableException.class);
                    readded.await(readded.kv().put(Keys.status("web1"), ByteSequence.from(new byte[] {1})));
                }
            }
            coordinator.terminate();
            assertThat(coordinator.awaitExit(Duration.ofSeconds(20))).isZero();
        }
    }

    @Test
    void theCoordinatorRotatesAnAgentsCertificateOnItsScheduleAndRevokesTheOldOne() throws Exception {
        String endpoint = freeEndpoint();
        Path pki = dir.resolve("state/pki");
        try (MusterProcess coordinator = MusterProcess.start(dir, "coordinator", "coordinator", "--dev", "--etcd", endpoint, "--prefix", dir.resolve("state"),
                "--rotate-certificates", "10s")) {
            await().atMost(Duration.ofSeconds(40)).until(() -> coordinator.err().contains(" leads") || !coordinator.isAlive());
            Cli added = Cli.run("host", "add", "web1", "--etcd", endpoint, "--pki", pki, "--output", dir.resolve("web1"));
            assertThat(added.exit()).as(added.err()).isZero();
            Path cert = dir.resolve("web1/web1.crt");
            Path key = dir.resolve("web1/web1.key");
            Path ca = dir.resolve("web1/ca.crt");
            Path old = Files.createDirectories(dir.resolve("old"));
            Files.copy(cert, old.resolve("web1.crt"));
            Files.copy(key, old.resolve("web1.key"));
            String first = Files.readString(cert);

            try (MusterProcess agent = MusterProcess.start(dir, "web1", as(endpoint, cert, key, ca, "agent", "--host", "web1", "--prefix", dir.resolve("web1-state")))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> agent.err().contains("registered as web1") || !agent.isAlive());
                await().atMost(Duration.ofSeconds(40)).until(() -> !Files.readString(cert).equals(first) || !agent.isAlive());
                assertThat(agent.isAlive()).as(agent.err()).isTrue();
                await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.err().contains("web1: certificate rotated"));
                assertThat(Files.getPosixFilePermissions(key)).hasToString("[OWNER_READ, OWNER_WRITE]");

                try (Etcd before = Etcd.client(EtcdOptions.of(endpoint, EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(5))
                        .withTls(new EtcdTls(old.resolve("web1.crt"), old.resolve("web1.key"), ca)));
                     Etcd now = Etcd.client(EtcdOptions.of(endpoint, EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(5)).withTls(new EtcdTls(cert, key, ca)))) {
                    assertThatThrownBy(() -> before.await(before.kv().put(Keys.status("web1"), ByteSequence.from(new byte[] {1}))))
                            .as("the certificate the rotation replaced, at a new connection").isInstanceOf(io.muster.agent.etcd.EtcdUnreachableException.class);
                    now.await(now.kv().put(Keys.worldHost("web1", "rotated"), ByteSequence.from(new byte[] {1})));
                }
                assertThat(agent.err()).doesNotContain("BEGIN").doesNotContain("PRIVATE KEY");
            }
            // a restarted agent connects with the certificate it installed
            try (MusterProcess again = MusterProcess.start(dir, "web1-again", as(endpoint, cert, key, ca, "agent", "--host", "web1", "--prefix", dir.resolve("web1-state")))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> again.err().contains("registered as web1") || !again.isAlive());
                assertThat(again.isAlive()).as(again.err()).isTrue();
            }
            coordinator.terminate();
            assertThat(coordinator.awaitExit(Duration.ofSeconds(20))).isZero();
        }
    }
}
