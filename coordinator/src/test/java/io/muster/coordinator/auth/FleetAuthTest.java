package io.muster.coordinator.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.auth.Permission;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.support.Observers;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.HostRegistration;
import io.muster.agent.etcd.Keys;
import io.muster.agent.pki.FleetCa;
import io.muster.agent.testing.LocalEtcd;
import io.muster.coordinator.rollout.LeaderFence;
import io.muster.proto.fleet.Alive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real etcd with TLS, client-certificate auth and the fleet's roles refuses what a host may not do. */
class FleetAuthTest {
    private static final String NAMESPACE = "/muster/";

    @TempDir
    static Path pki;

    private static LocalEtcd secured;

    @BeforeAll
    static void startSecuredEtcd() throws Exception {
        FleetCa ca = FleetCa.openOrCreate(pki);
        ca.server(List.of("127.0.0.1", "localhost")).write(pki, "etcd");
        ca.client(FleetAuth.ROOT).write(pki, "root");
        ca.client(FleetAuth.COORDINATOR).write(pki, "coordinator");
        for (String host : List.of("web1", "web2", "web3", "web4", "web5", "web6", "web7")) ca.client(FleetAuth.hostUser(host)).write(pki, host);
        ca.client("host-nobody").write(pki, "nobody");
        secured = LocalEtcd.startSecured(pki.resolve("etcd.crt"), pki.resolve("etcd.key"), pki.resolve("ca.crt"));
        try (Etcd root = as("root")) {
            FleetAuth auth = new FleetAuth(root);
            auth.setUp();
            auth.setUp(); // again, as each start of the coordinator does
            for (String host : List.of("web1", "web2", "web3", "web4", "web5", "web6", "web7")) auth.addHost(host, List.of("file"));
        }
    }

    @AfterAll
    static void stop() {
        if (secured != null) secured.close();
    }

    private static Etcd as(String credentials) {
        EtcdOptions options = EtcdOptions.of(secured.endpoint(), NAMESPACE, Duration.ofSeconds(5))
                .withTls(new EtcdTls(pki.resolve(credentials + ".crt"), pki.resolve(credentials + ".key"), pki.resolve("ca.crt")));
        return Etcd.client(options);
    }

    private static void put(Etcd etcd, ByteSequence key) throws EtcdUnreachableException {
        etcd.await(etcd.kv().put(key, ByteSequence.from("x", StandardCharsets.UTF_8)));
    }

    @Test
    void aHostWritesItsOwnKeysAndReadsTheFleetsShared() throws Exception {
        try (Etcd coordinator = as("coordinator"); Etcd web1 = as("web1")) {
            put(coordinator, Keys.graphPointer("web1"));
            put(coordinator, Keys.CURRENT_DEPLOY);
            put(web1, Keys.status("web1"));
            put(web1, Keys.alive("web1"));
            put(web1, Keys.facts("web1"));
            put(web1, Keys.exported("file", "web1", "backend"));
            put(web1, Keys.worldHost("web1", "counter"));
            put(web1, Keys.worldShared("lock"));
            assertThat(web1.await(web1.kv().get(Keys.graphPointer("web1"))).getKvs()).hasSize(1);
            long revision = coordinator.await(coordinator.kv().get(Keys.CURRENT_DEPLOY)).getHeader().getRevision();
            coordinator.await(coordinator.kv().compact(revision)); // the leader compacts etcd's history as the coordinator
            assertThat(web1.await(web1.kv().get(Keys.CURRENT_DEPLOY)).getKvs()).hasSize(1);
        }
    }

    @Test
    void aHostCannotWriteAnotherHostsKeysNorGraphsNorDeploys() throws Exception {
        try (Etcd web1 = as("web1")) {
            for (ByteSequence key : List.of(Keys.status("web2"), Keys.alive("web2"), Keys.graphPointer("web2"), Keys.graphPointer("web1"),
                    Keys.exported("file", "web2", "backend"), Keys.exported("exec", "web1", "x"), Keys.worldHost("web2", "counter"),
                    Keys.CURRENT_DEPLOY, Keys.deploy(1), Keys.graph("web1", "0".repeat(64)), Keys.graph("web2", "0".repeat(64)), Keys.LEADER)) {
                assertThatThrownBy(() -> put(web1, key)).as(Keys.text(key)).hasMessageContaining("refused: permission denied");
            }
            assertThatThrownBy(() -> web1.await(web1.kv().get(Keys.status("web2")))).hasMessageContaining("refused: permission denied");
        }
    }

    @Test
    void aRemovedHostCanNoLongerWrite() throws Exception {
        try (Etcd web3 = as("web3")) {
            put(web3, Keys.status("web3"));
            try (Etcd root = as("root")) {
                assertThat(new FleetAuth(root).removeHost("web3")).isTrue();
                assertThat(new FleetAuth(root).removeHost("web3")).isFalse();
            }
            assertThatThrownBy(() -> put(web3, Keys.status("web3"))).hasMessageContaining("refused");
        }
    }

    @Test
    void aRemovedHostLosesItsRegistrationAndExportsAtOnceThoughItKeepsItsLeaseAlive() throws Exception {
        try (Etcd web4 = as("web4"); Etcd root = as("root")) {
            long lease = web4.await(web4.jetcd().getLeaseClient().grant(60)).getID();
            try (var keepingAlive = web4.jetcd().getLeaseClient().keepAlive(lease, Observers.observer(response -> {}))) {
                web4.await(web4.kv().put(Keys.alive("web4"), ByteSequence.from("up", StandardCharsets.UTF_8), PutOption.builder().withLeaseId(lease).build()));
                web4.await(web4.kv().put(Keys.exported("file", "web4", "backend"), ByteSequence.from("x", StandardCharsets.UTF_8),
                        PutOption.builder().withLeaseId(lease).build()));
                put(web4, Keys.exported("file", "web4", "unbound"));

                assertThat(new FleetAuth(root).removeHost("web4")).isTrue();

                assertThat(root.await(root.kv().get(Keys.alive("web4"))).getKvs()).as("its registration").isEmpty();
                assertThat(root.await(root.kv().get(Keys.exportedKind("file"), GetOption.builder().isPrefix(true).build())).getKvs())
                        .extracting(kv -> Keys.text(kv.getKey())).noneMatch(key -> key.contains("/web4/"));
            }
        }
    }

    @Test
    void theLeaderDeletesExportsNotBoundToTheirHostsRegistration() throws Exception {
        try (Etcd web5 = as("web5"); Etcd coordinator = as("coordinator")) {
            var leases = web5.jetcd().getLeaseClient();
            long registration = web5.await(leases.grant(2)).getID();
            long other = web5.await(leases.grant(600)).getID();
            try (var keepingAlive = leases.keepAlive(registration, Observers.observer(response -> {}))) {
                web5.await(web5.kv().put(Keys.alive("web5"), ByteSequence.from("up", StandardCharsets.UTF_8), PutOption.builder().withLeaseId(registration).build()));
                for (String name : List.of("bound", "other", "unbound")) {
                    long lease = name.equals("bound") ? registration : name.equals("other") ? other : 0;
                    web5.await(web5.kv().put(Keys.exported("file", "web5", name), ByteSequence.from(name, StandardCharsets.UTF_8),
                            PutOption.builder().withLeaseId(lease).build()));
                }
                web5.await(web5.kv().put(Keys.key("exported/file/web5/"), ByteSequence.from("no name", StandardCharsets.UTF_8),
                        PutOption.builder().withLeaseId(registration).build()));
                put(coordinator, Keys.LEADER);
                long elected = coordinator.await(coordinator.kv().get(Keys.LEADER)).getKvs().getFirst().getCreateRevision();
                CompletableFuture<String> over = new CompletableFuture<>();
                LeaderFence fence = new LeaderFence() {
                    public ByteSequence key() { return Keys.LEADER; }
                    public long revision() { return elected; }
                    public Cmp stillLeader() { return new Cmp(Keys.LEADER, Cmp.Op.EQUAL, CmpTarget.createRevision(elected)); }
                    public void end(String why) { over.complete(why); }
                };
                Thread warden = Thread.ofVirtual().start(() -> new ExportWarden(coordinator, Clock.systemUTC()).lead(fence, over));
                try {
                    Callable<List<String>> names = () -> coordinator.await(coordinator.kv().get(Keys.exportedKind("file"), GetOption.builder().isPrefix(true).build()))
                            .getKvs().stream().map(kv -> Keys.text(kv.getKey())).filter(key -> key.contains("/web5/"))
                            .map(key -> key.substring(key.lastIndexOf('/') + 1)).toList();
                    await().atMost(Duration.ofSeconds(5)).until(names, list -> !list.contains("unbound") && !list.contains(""));
                    assertThat(names.call()).as("another lease is deleted only after the registration's TTL").contains("bound", "other");
                    await().atMost(Duration.ofSeconds(10)).until(names, list -> !list.contains("other"));
                    assertThat(names.call()).containsExactly("bound");
                } finally {
                    fence.end("test over");
                    warden.join();
                }
            }
        }
    }

    @Test
    void theLeaderRevokesARegistrationItsAgentStoppedWritingThoughSomeoneKeepsItsLeaseAlive() throws Exception {
        try (Etcd web6 = as("web6"); Etcd web7 = as("web7"); Etcd coordinator = as("coordinator")) {
            // web6's agent is gone; another client keeps its lease alive (etcd checks no permission for that)
            long pinned = web6.await(web6.jetcd().getLeaseClient().grant(60)).getID();
            try (var keepingAlive = coordinator.jetcd().getLeaseClient().keepAlive(pinned, Observers.observer(response -> {}));
                 HostRegistration honest = new HostRegistration(web7, "web7", Duration.ofSeconds(1), Alive.newBuilder().setVersion("test").build(),
                         io.muster.proto.fleet.Facts::getDefaultInstance, pki.resolve("web7.lease"))) {
                web6.await(web6.kv().put(Keys.alive("web6"), ByteSequence.from(Alive.newBuilder().setRenewSeconds(1).build().toByteArray()),
                        PutOption.builder().withLeaseId(pinned).build()));
                put(web6, Keys.exported("file", "web6", "backend"));
                web6.await(web6.kv().put(Keys.exported("file", "web6", "pinned"), ByteSequence.from("x", StandardCharsets.UTF_8),
                        PutOption.builder().withLeaseId(pinned).build()));
                honest.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> honest.lease() != 0);
                long registered = honest.lease();

                CompletableFuture<String> over = new CompletableFuture<>();
                Thread warden = Thread.ofVirtual().start(() -> new RegistrationWarden(coordinator, Clock.systemUTC()).lead(over));
                try {
                    await().atMost(Duration.ofSeconds(8)).until(() -> coordinator.await(coordinator.kv().get(Keys.alive("web6"))).getKvs().isEmpty());
                    assertThat(coordinator.await(coordinator.kv().get(Keys.exported("file", "web6", "pinned"))).getKvs()).as("bound to its lease").isEmpty();
                    await().during(Duration.ofSeconds(7)).atMost(Duration.ofSeconds(9)).until(() -> honest.lease() == registered
                            && coordinator.await(coordinator.kv().get(Keys.alive("web7"))).getKvs().size() == 1);
                } finally {
                    over.complete("test over");
                    warden.join();
                }
            }
        }
    }

    @Test
    void aHostReadsItsOwnGraphOnlyAndNoManifest() throws Exception {
        try (Etcd coordinator = as("coordinator"); Etcd web1 = as("web1")) {
            put(coordinator, Keys.graph("web1", "1".repeat(64)));
            put(coordinator, Keys.graph("web2", "2".repeat(64)));
            assertThat(web1.await(web1.kv().get(Keys.graph("web1", "1".repeat(64)))).getKvs()).hasSize(1);
            assertThatThrownBy(() -> web1.await(web1.kv().get(Keys.graph("web2", "2".repeat(64))))).hasMessageContaining("refused: permission denied");
            put(coordinator, Keys.manifest("3".repeat(64)));
            assertThatThrownBy(() -> web1.await(web1.kv().get(Keys.manifest("3".repeat(64))))).as("a manifest, holding every host's data")
                    .hasMessageContaining("refused: permission denied");
            assertThatThrownBy(() -> web1.await(web1.kv().get(Keys.GRAPHS, GetOption.builder().isPrefix(true).build())))
                    .as("listing every host's graphs").hasMessageContaining("refused: permission denied");
        }
    }

    @Test
    void enrolledHostsGainWhatAnEarlierMusterDidNotGrantAndLoseTheSharedGraphRead() throws Exception {
        try (Etcd root = as("root"); Etcd coordinator = as("coordinator"); Etcd web2 = as("web2")) {
            // as an earlier muster enrolled: every host read all of graphs/, and knew no kind "later"
            ByteSequence graphs = ByteSequence.from(NAMESPACE + "graphs/", StandardCharsets.UTF_8);
            root.await(root.jetcd().getAuthClient().roleGrantPermission(ByteSequence.from(FleetAuth.HOSTS, StandardCharsets.UTF_8),
                    graphs, ByteSequence.from(NAMESPACE + "graphs0", StandardCharsets.UTF_8), Permission.Type.READ));
            put(coordinator, Keys.graph("web1", "1".repeat(64)));
            assertThat(web2.await(web2.kv().get(Keys.graph("web1", "1".repeat(64)))).getKvs()).hasSize(1);
            assertThatThrownBy(() -> put(web2, Keys.exported("later", "web2", "x"))).hasMessageContaining("refused: permission denied");

            FleetAuth auth = new FleetAuth(root);
            auth.setUp();
            assertThat(auth.updateHosts(List.of("file", "later"))).isPositive();
            assertThat(auth.updateHosts(List.of("file", "later"))).as("nothing missing: no role changes").isZero();

            assertThatThrownBy(() -> web2.await(web2.kv().get(Keys.graph("web1", "1".repeat(64))))).hasMessageContaining("refused: permission denied");
            put(web2, Keys.exported("later", "web2", "x"));
            assertThatThrownBy(() -> put(web2, Keys.exported("later", "web1", "x"))).hasMessageContaining("refused: permission denied");
        }
    }

    @Test
    void aCertificateOfAnUnknownUserIsRefused() throws Exception {
        try (Etcd nobody = as("nobody")) {
            assertThatThrownBy(() -> put(nobody, Keys.status("nobody"))).hasMessageContaining("refused");
        }
    }

    @Test
    void theCaAndKeysAreTheOwnersOnly() throws IOException {
        assertThat(Files.getPosixFilePermissions(pki.resolve("ca.key"))).hasToString("[OWNER_READ, OWNER_WRITE]");
        assertThat(Files.getPosixFilePermissions(pki.resolve("web1.key"))).hasToString("[OWNER_READ, OWNER_WRITE]");
    }
}
