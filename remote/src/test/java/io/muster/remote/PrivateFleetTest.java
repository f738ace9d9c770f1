package io.muster.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.coordinator.auth.FleetAuth;
import io.muster.coordinator.auth.FleetPki;
import io.muster.coordinator.deploy.Bundle;
import io.muster.coordinator.deploy.BundleReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's own fleet: a private etcd with TLS and a certificate per host that is gone afterwards, or a namespace of a
 * shared etcd (and, on an https:// one, users of the run's own) that is deleted afterwards.
 */
@ExtendWith(LocalEtcd.class)
class PrivateFleetTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private Bundle bundle() throws Exception {
        Files.writeString(dir.resolve("site.yaml"), "resources:\n  - file: {name: /tmp/x, content: \"x\\n\"}\n");
        return new BundleReader(BundleReader.DEFAULT_MAX_BYTES, warning -> {}).read(dir.resolve("site.yaml"));
    }

    private static Etcd as(PrivateFleet fleet, EtcdTls tls) {
        return Etcd.client(new EtcdOptions(List.of(fleet.endpoint()), fleet.namespace(), TIMEOUT, tls));
    }

    private static void put(Etcd etcd, ByteSequence key) throws EtcdUnreachableException {
        etcd.await(etcd.kv().put(key, ByteSequence.from("x", StandardCharsets.UTF_8)));
    }

    @Test
    void aPrivateEtcdServesTlsToTheRunsCertificatesOnlyAndIsStoppedOnClose() throws Exception {
        PrivateFleet fleet = PrivateFleet.start(null, null, "r1", TIMEOUT);
        EtcdTls web1;
        try (fleet) {
            assertThat(fleet.endpoint().toString()).startsWith("https://127.0.0.1:");
            assertThat(fleet.deploy(bundle(), "me@here")).isEqualTo(1);
            web1 = fleet.admit("web1");
            try (Etcd host = as(fleet, web1)) {
                assertThat(host.await(host.kv().get(Keys.CURRENT_DEPLOY)).getKvs()).as("a host reads the deploys").hasSize(1);
            }
            try (Etcd anonymous = as(fleet, new EtcdTls(null, null, web1.ca()))) {
                assertThatThrownBy(() -> anonymous.await(anonymous.kv().get(Keys.CURRENT_DEPLOY))).as("no client certificate, no answer")
                        .isInstanceOf(EtcdUnreachableException.class);
            }
            assertThat(fleet.host("web1")).as("never registered").isNull();
            assertThat(Files.getPosixFilePermissions(web1.key())).hasToString("[OWNER_READ, OWNER_WRITE]");
        }
        assertThat(web1.key()).as("the run's certificates go with it").doesNotExist();
        assertThatThrownBy(() -> Etcd.connect(new EtcdOptions(List.of(fleet.endpoint()), fleet.namespace(), Duration.ofSeconds(2))).close())
                .isInstanceOf(EtcdUnreachableException.class);
    }

    @Test
    void oneHostsCertificateWritesItsOwnKeysOnlyAndCannotReadAnotherHostsGraph() throws Exception {
        try (PrivateFleet fleet = PrivateFleet.start(null, null, "r2", TIMEOUT);
             Etcd web1 = as(fleet, fleet.admit("web1"));
             Etcd web2 = as(fleet, fleet.admit("web2"))) {
            put(web1, Keys.status("web1"));
            put(web2, Keys.status("web2"));
            assertThat(web1.await(web1.kv().get(Keys.graphPointer("web1"))).getKvs()).isEmpty(); // allowed: not compiled yet

            assertThatThrownBy(() -> web1.await(web1.kv().get(Keys.graphPointer("web2")))).hasMessageContaining("refused");
            assertThatThrownBy(() -> web1.await(web1.kv().get(Keys.status("web2")))).hasMessageContaining("refused");
            assertThatThrownBy(() -> put(web1, Keys.status("web2"))).hasMessageContaining("refused");
            assertThatThrownBy(() -> put(web1, Keys.graphPointer("web1"))).as("only the coordinator writes graphs").hasMessageContaining("refused");
            assertThatThrownBy(() -> put(web1, Keys.CURRENT_DEPLOY)).hasMessageContaining("refused");
        }
    }

    @Test
    void onASharedEtcdTheRunKeepsToANamespaceOfItsOwnAndDeletesItOnClose(LocalEtcd local) throws Exception {
        String namespace = LocalEtcd.uniqueNamespace("remote-fleet");
        try (Etcd fleetsOwn = Etcd.connect(EtcdOptions.of(local.endpoint(), namespace, TIMEOUT))) {
            fleetsOwn.await(fleetsOwn.kv().put(Keys.CURRENT_DEPLOY, ByteSequence.from("the fleet's", StandardCharsets.UTF_8)));
            try (PrivateFleet fleet = PrivateFleet.start(EtcdOptions.of(local.endpoint(), namespace, TIMEOUT), null, "r3", TIMEOUT)) {
                assertThat(fleet.namespace()).isEqualTo(namespace + "remote/r3/");
                assertThat(fleet.admit("web1")).as("an http:// etcd has no certificates to give").isNull();
                fleet.deploy(bundle(), "me@here");
                assertThat(count(fleetsOwn, "remote/r3/")).isPositive();
            }
            assertThat(count(fleetsOwn, "remote/")).as("the run's keys are gone").isZero();
            assertThat(fleetsOwn.await(fleetsOwn.kv().get(Keys.CURRENT_DEPLOY)).getKvs().getFirst().getValue().toString(StandardCharsets.UTF_8))
                    .isEqualTo("the fleet's");
        }
    }

    @Test
    void onASecuredSharedEtcdTheFleetsCaSignsTheHostsCertificatesWhichGrantNothingOutsideTheRunNorAfterIt() throws Exception {
        Path pki = dir.resolve("pki");
        FleetPki fleetPki = FleetPki.openOrCreate(pki, List.of());
        try (LocalEtcd secured = LocalEtcd.startSecured(pki.resolve("etcd.crt"), pki.resolve("etcd.key"), fleetPki.caFile())) {
            EtcdOptions shared = EtcdOptions.of(secured.endpoint(), "/muster/", TIMEOUT).withTls(new EtcdTls(null, null, fleetPki.caFile()));
            try (Etcd root = Etcd.connect(shared.withTls(fleetPki.tls(FleetPki.ROOT)))) {
                FleetAuth auth = new FleetAuth(root);
                auth.setUp(); // as the fleet's coordinator does
                auth.addHost("web1", List.of("file"));
            }
            EtcdTls kept;
            try (PrivateFleet fleet = PrivateFleet.start(shared, pki, "r4", TIMEOUT)) {
                fleet.deploy(bundle(), "me@here");
                EtcdTls web1 = fleet.admit("web1");
                kept = new EtcdTls(Files.copy(web1.certificate(), dir.resolve("web1.crt")), Files.copy(web1.key(), dir.resolve("web1.key")), web1.ca());
                try (Etcd inRun = as(fleet, web1); Etcd outside = Etcd.client(shared.withTls(web1))) {
                    put(inRun, Keys.status("web1"));
                    assertThat(inRun.await(inRun.kv().get(Keys.CURRENT_DEPLOY)).getKvs()).as("the run's deploy").hasSize(1);
                    assertThatThrownBy(() -> put(outside, Keys.status("web1"))).as("the fleet's own web1").hasMessageContaining("refused");
                    assertThatThrownBy(() -> outside.await(outside.kv().get(Keys.CURRENT_DEPLOY))).hasMessageContaining("refused");
                }
            }
            try (Etcd afterwards = Etcd.client(new EtcdOptions(shared.endpoints(), "/muster/remote/r4/", TIMEOUT, kept))) {
                assertThatThrownBy(() -> put(afterwards, Keys.status("web1"))).as("the run's users are deleted").hasMessageContaining("refused");
            }
        }
    }

    @Test
    void aSecuredSharedEtcdWithoutTheFleetsCaIsRefusedInOneLine() {
        EtcdOptions shared = EtcdOptions.of("https://127.0.0.1:1", "/muster/", TIMEOUT);

        assertThatThrownBy(() -> PrivateFleet.start(shared, dir.resolve("no-pki"), "r5", TIMEOUT))
                .hasMessage("--etcd https://127.0.0.1:1: the hosts' agents need client certificates, and there is no fleet CA in "
                        + dir.resolve("no-pki") + " to make them (give --pki, the coordinator's certificate directory, or no --etcd for a private etcd)");
    }

    private static long count(Etcd etcd, String prefix) throws Exception {
        return etcd.await(etcd.kv().get(Keys.key(prefix), GetOption.builder().isPrefix(true).withCountOnly(true).build())).getCount();
    }
}
