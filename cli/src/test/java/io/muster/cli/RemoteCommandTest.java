package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.coordinator.auth.FleetAuth;
import io.muster.coordinator.auth.FleetPki;
import io.muster.engine.util.Json;
import io.muster.remote.install.Payload;
import io.muster.remote.testing.CuttingProxy;
import io.muster.remote.testing.Sshd;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code muster remote} as a user runs it, against two real OpenSSH servers on loopback standing for two hosts (they
 * share this machine's files, so a host's files are checked on this disk) with a private etcd: muster's jar and a jlink
 * runtime are uploaded into the hosts' cache, and their agents converge the manifest through the tunnel.
 */
@ExtendWith(LocalEtcd.class)
class RemoteCommandTest {
    private static final Duration PATIENCE = Duration.ofMinutes(3);
    private static Sshd web;
    private static Sshd db;
    private static Path knownHosts;

    @TempDir
    Path dir;

    private final List<MusterProcess> started = new ArrayList<>();

    @BeforeAll
    static void hosts() throws Exception {
        web = Sshd.launch();
        db = Sshd.launch();
        knownHosts = Files.createTempFile("muster-remote-known-hosts-", "");
        Files.writeString(knownHosts, Files.readString(web.knownHosts()) + Files.readString(db.knownHosts()));
    }

    @AfterAll
    static void stop() throws Exception {
        web.close();
        db.close();
        Files.delete(knownHosts);
        removeCache(); // what this JVM's runs cached
    }

    private static void removeCache() throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("rm", "-rf", cacheOnTheHosts().toString()).start().waitFor()).isZero();
    }

    @AfterEach
    void close() throws Exception {
        for (MusterProcess m : started) m.close();
    }

    /** Where the hosts (this machine, logged in as the tester) cache this JVM's payload. */
    private static Path cacheOnTheHosts() throws IOException, InterruptedException {
        return Path.of(System.getProperty("user.home"), ".cache/muster", new Payload(TestPayload.jar(), TestPayload.runtime()).digest());
    }

    private Path manifest() throws IOException {
        Path manifest = dir.resolve("site/site.yaml");
        Files.createDirectories(manifest.getParent());
        Files.createDirectories(dir.resolve("out"));
        Files.writeString(manifest, """
                resources:
                  - file:
                      - "%s/${ facts.host }": {ensure: directory}
                      - "%s/${ facts.host }/motd": {content: "managed by muster remote on ${ facts.host }\\n"}
                """.formatted(dir.resolve("out"), dir.resolve("out")));
        return manifest;
    }

    /** {@code muster remote} with the hosts' keys and the test runtime, each host's state in a directory of its own. */
    private MusterProcess remote(Object... args) throws Exception {
        List<Object> all = new ArrayList<>(List.of("remote", "-i", web.userKey(), "-i", db.userKey(), "--known-hosts", knownHosts,
                "--runtime", TestPayload.runtime(), "--prefix", dir.resolve("state-%h"), "--converged-timeout", 60));
        all.addAll(List.of(args));
        MusterProcess remote = MusterProcess.startFrom(TestPayload.jar().toString(), dir, "remote-" + started.size(), Map.of(), all.toArray());
        started.add(remote);
        return remote;
    }

    private static String dest(String name, Sshd sshd) {
        return name + "=" + sshd.user() + "@127.0.0.1:" + sshd.port();
    }

    @Test
    void twoHostsConvergeWithTheirOwnFactsAndASecondRunFindsMusterInTheirCache() throws Exception {
        removeCache(); // another test's run may have cached this JVM's payload
        Path manifest = manifest();

        MusterProcess first = remote(dest("web1", web), "127.0.0.1:" + db.port(), "--", manifest);
        assertThat(first.awaitExit(PATIENCE)).as(first.err()).isZero();
        String dbName = "127.0.0.1:" + db.port();
        assertThat(dir.resolve("out/web1/motd")).hasContent("managed by muster remote on web1");
        assertThat(dir.resolve("out/" + dbName + "/motd")).hasContent("managed by muster remote on " + dbName);
        assertThat(first.out().lines().toList()).hasSize(3)
                .satisfies(lines -> assertThat(lines.get(1)).matches("web1 +converged +2 +0 +[0-9.]+s +uploaded"))
                .satisfies(lines -> assertThat(lines.get(2)).matches("127\\.0\\.0\\.1:" + db.port() + " +converged +2 +0 +[0-9.]+s +uploaded"));
        assertThat(first.err()).contains("web1: uploaded muster (", dbName + ": uploaded muster (", "web1: converged in ");
        assertThat(cacheOnTheHosts()).isDirectory();
        assertThat(certificatesOnTheHosts()).as("each agent's certificate is removed when it ends").isEmpty();

        MusterProcess second = remote("--output", "json", dest("web1", web), "127.0.0.1:" + db.port(), "--", manifest);
        assertThat(second.awaitExit(PATIENCE)).as(second.err()).isZero();
        ReportSchema.assertValid(second.out());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> hosts = (List<Map<String, Object>>) ((Map<String, Object>) Json.parse(second.out())).get("hosts");
        assertThat(hosts).extracting(h -> h.get("name"), h -> h.get("result"), h -> h.get("changed"), h -> h.get("cache"), h -> h.get("error"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("web1", "converged", 0L, "reused", null),
                        org.assertj.core.groups.Tuple.tuple(dbName, "converged", 0L, "reused", null));
        assertThat(agentsLeftRunning()).isEmpty();
    }

    @Test
    void withNoCachingNothingIsLeftInTheHostsCache() throws Exception {
        // two hosts that are one machine and one login: neither may remove the copy the other still runs
        MusterProcess run = remote("--no-caching", dest("web1", web), dest("db1", db), "--", manifest());

        assertThat(run.awaitExit(PATIENCE)).as(run.err()).isZero();
        assertThat(dir.resolve("out/web1/motd")).exists();
        assertThat(dir.resolve("out/db1/motd")).exists();
        assertThat(cacheOnTheHosts()).doesNotExist();
        try (Stream<Path> left = Files.exists(cacheOnTheHosts().getParent()) ? Files.list(cacheOnTheHosts().getParent()) : Stream.empty()) {
            assertThat(left).noneMatch(p -> p.getFileName().toString().startsWith(".run-"));
        }
        assertThat(agentsLeftRunning()).isEmpty();
    }

    @Test
    void anUnreachableHostIsReportedWhileTheOtherConverges() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        MusterProcess run = remote(dest("web1", web), "down=127.0.0.1:" + closed, "stranger=" + db.user() + "@localhost:" + db.port(),
                "--", manifest());

        assertThat(run.awaitExit(PATIENCE)).as(run.err()).isEqualTo(1);
        assertThat(run.out().lines().toList()).hasSize(6)
                .satisfies(lines -> assertThat(lines.get(1)).matches("web1 +converged +.*"))
                .satisfies(lines -> assertThat(lines.get(2)).matches("down +unreachable +- +- +[0-9.]+s +-"))
                .satisfies(lines -> assertThat(lines.get(4)).matches("stranger +unreachable +- +- +[0-9.]+s +-"))
                .satisfies(lines -> assertThat(lines.get(5)).as("a host key not in known_hosts is refused").contains("--accept-new-host-keys"));
        assertThat(dir.resolve("out/stranger")).doesNotExist();
        assertThat(dir.resolve("out/web1/motd")).exists();
        assertThat(dir.resolve("out/down")).doesNotExist();
    }

    @Test
    void withOneConnectionAtATimeTheHostsAreWorkedOnInTurn() throws Exception {
        MusterProcess run = remote("--cconns", 1, dest("web1", web), dest("db1", db), "--", manifest());

        assertThat(run.awaitExit(PATIENCE)).as(run.err()).isZero();
        List<String> lines = run.err().lines().toList();
        int webDone = indexOf(lines, "web1: converged in ");
        int dbStarts = indexOf(lines, "db1: connecting");
        assertThat(webDone).as(run.err()).isNotNegative();
        assertThat(dbStarts).as("db1 starts once web1 is done:%n%s", run.err()).isGreaterThan(webDone);
        assertThat(lines.subList(0, dbStarts)).noneMatch(line -> line.startsWith("db1: "));
    }

    @Test
    void aConnectionCutMidUploadIsTriedAgainAndTheHostConverges() throws Exception {
        removeCache(); // an upload to cut
        try (CuttingProxy proxy = new CuttingProxy(web.port())) {
            Files.writeString(knownHosts, "[127.0.0.1]:" + proxy.port() + " " + web.hostKeyPub() + "\n", java.nio.file.StandardOpenOption.APPEND);
            proxy.cutAfter(5_000_000);
            MusterProcess run = remote("--no-caching", "cut=" + web.user() + "@127.0.0.1:" + proxy.port(), "--", manifest());

            assertThat(run.awaitExit(PATIENCE)).as(run.err()).isZero();
            assertThat(run.err()).contains("; trying again (1 of 2)");
            assertThat(dir.resolve("out/cut/motd")).exists();
        }
    }

    @Test
    void whenTheConnectionDropsWhileTheAgentRunsTheAgentStopsOnTheHost() throws Exception {
        Path manifest = manifest();
        Files.writeString(manifest, Files.readString(manifest) + "  - exec: {name: slow, command: \"sleep 3\"}\n");
        try (CuttingProxy proxy = new CuttingProxy(web.port())) {
            Files.writeString(knownHosts, "[127.0.0.1]:" + proxy.port() + " " + web.hostKeyPub() + "\n", java.nio.file.StandardOpenOption.APPEND);
            MusterProcess run = remote("--retries", 0, "dropped=" + web.user() + "@127.0.0.1:" + proxy.port(), "--", manifest);
            awaitLine(run, "dropped: INFO  muster: running graph");
            assertThat(agentsLeftRunning()).hasSize(1);

            proxy.cutAll();

            assertThat(run.awaitExit(PATIENCE)).as(run.err()).isEqualTo(1);
            assertThat(run.out()).containsPattern("dropped +failed ");
            await().atMost(Duration.ofSeconds(20)).until(() -> agentsLeftRunning().isEmpty());
            await().atMost(Duration.ofSeconds(5)).until(() -> certificatesOnTheHosts().isEmpty());
        }
    }

    @Test
    void withEtcdTheRunKeepsToANamespaceOfItsOwnThereAndDeletesIt(LocalEtcd local) throws Exception {
        String namespace = LocalEtcd.uniqueNamespace("remote");
        try (Etcd etcd = Etcd.connect(EtcdOptions.of(local.endpoint(), namespace, Duration.ofSeconds(5)))) {
            etcd.await(etcd.kv().put(Keys.CURRENT_DEPLOY, ByteSequence.from("the fleet's own", StandardCharsets.UTF_8)));

            MusterProcess run = remote("--etcd", local.endpoint(), "--namespace", namespace, dest("web1", web), "--", manifest());

            assertThat(run.awaitExit(PATIENCE)).as(run.err()).isZero();
            assertThat(dir.resolve("out/web1/motd")).exists();
            assertThat(etcd.await(etcd.kv().get(ByteSequence.from(new byte[] {0}), GetOption.builder().withRange(ByteSequence.from(new byte[] {0}))
                    .build())).getKvs()).as("nothing of the run is left")
                    .extracting(kv -> kv.getKey().toString(StandardCharsets.UTF_8)).containsExactly("deploys/current");
        }
    }

    @Test
    void withAnHttpsEtcdTheFleetsCaSignsTheHostsCertificatesForTheRun() throws Exception {
        Path pki = dir.resolve("pki");
        FleetPki fleetPki = FleetPki.openOrCreate(pki, List.of());
        try (LocalEtcd secured = LocalEtcd.startSecured(pki.resolve("etcd.crt"), pki.resolve("etcd.key"), fleetPki.caFile())) {
            try (Etcd root = Etcd.connect(EtcdOptions.of(secured.endpoint(), "/muster/", Duration.ofSeconds(5)).withTls(fleetPki.tls(FleetPki.ROOT)))) {
                new FleetAuth(root).setUp(); // as the fleet's coordinator does
            }

            MusterProcess run = remote("--etcd", secured.endpoint(), "--pki", pki, dest("web1", web), "--", manifest());

            assertThat(run.awaitExit(PATIENCE)).as(run.err()).isZero();
            assertThat(dir.resolve("out/web1/motd")).exists();
            assertThat(certificatesOnTheHosts()).isEmpty();
        }
    }

    @Test
    void withAnHttpsEtcdAndNoFleetCaTheRunIsRefusedInOneLine() throws Exception {
        MusterProcess run = remote("--etcd", "https://127.0.0.1:1", "--pki", dir.resolve("none"), dest("web1", web), "--", manifest());

        assertThat(run.awaitExit(PATIENCE)).isEqualTo(1);
        assertThat(run.err().lines().toList()).containsExactly("muster: --etcd https://127.0.0.1:1: the hosts' agents need client certificates, "
                + "and there is no fleet CA in " + dir.resolve("none") + " to make them (give --pki, the coordinator's certificate directory, "
                + "or no --etcd for a private etcd)");
    }

    @Test
    void ctrlCStopsTheRunAndLeavesNothingRunningHereOrOnTheHosts() throws Exception {
        Path manifest = manifest();
        Files.writeString(manifest, Files.readString(manifest) + "  - exec: {name: slow, command: \"sleep 2\"}\n");
        MusterProcess run = remote(dest("web1", web), "--", manifest);
        awaitLine(run, "web1: INFO  muster: running graph");

        run.interrupt();

        assertThat(run.awaitExit(PATIENCE)).as(run.err()).isEqualTo(130);
        assertThat(run.leftovers()).as("the private etcd is stopped").isEmpty();
        await().atMost(Duration.ofSeconds(20)).until(() -> agentsLeftRunning().isEmpty());
    }

    /** Waits until the run has said {@code line}; fails at once should it end first. */
    private static void awaitLine(MusterProcess run, String line) {
        await().atMost(PATIENCE).until(() -> run.err().contains(line) || !run.isAlive());
        assertThat(run.err()).contains(line);
    }

    private static int indexOf(List<String> lines, String start) {
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith(start)) return i;
        return -1;
    }

    /** The agents' certificate directories in the hosts' cache. */
    private static List<Path> certificatesOnTheHosts() throws IOException, InterruptedException {
        Path root = cacheOnTheHosts().getParent();
        if (!Files.isDirectory(root)) return List.of();
        try (Stream<Path> all = Files.walk(root, 2)) {
            return all.filter(p -> p.getFileName().toString().startsWith(".tls-")).toList();
        }
    }

    /** muster's agents started from this JVM's cached jar that still run. */
    private static List<ProcessHandle> agentsLeftRunning() throws Exception {
        Path cached = cacheOnTheHosts();
        String root = cached.getParent() + "/";
        String jar = cached.getFileName() + "/muster.jar"; // in the shared cache, or a --no-caching copy of its own
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            return all.filter(p -> p.info().arguments().map(a -> List.of(a).stream().anyMatch(arg -> arg.startsWith(root) && arg.endsWith(jar)))
                    .orElse(false)).toList();
        }
    }
}
