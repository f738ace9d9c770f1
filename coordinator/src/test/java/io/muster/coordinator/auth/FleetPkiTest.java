package io.muster.coordinator.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.pki.Credentials;
import io.muster.agent.testing.LocalEtcd;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rotating a host's certificate against a real etcd run with the fleet's flags: the old one is refused, the new one works. */
class FleetPkiTest {
    @TempDir
    Path pki;

    @TempDir
    Path host;

    private Etcd as(LocalEtcd etcd, FleetPki fleetPki, Credentials credentials, String name) throws Exception {
        Path dir = Files.createDirectories(host.resolve(name));
        credentials.write(dir, "web1");
        return Etcd.client(EtcdOptions.of(etcd.endpoint(), "/muster/", Duration.ofSeconds(5))
                .withTls(new EtcdTls(dir.resolve("web1.crt"), dir.resolve("web1.key"), fleetPki.caFile())));
    }

    private static void put(Etcd etcd) throws EtcdUnreachableException {
        etcd.await(etcd.kv().put(Keys.status("web1"), ByteSequence.from("x", StandardCharsets.UTF_8)));
    }

    @Test
    void aRotatedHostsOldCertificateIsRefusedAndItsNewOneWorks() throws Exception {
        FleetPki fleetPki = FleetPki.openOrCreate(pki, List.of());
        try (LocalEtcd etcd = LocalEtcd.startSecured(fleetPki.etcdFlags())) {
            try (Etcd root = Etcd.connect(EtcdOptions.of(etcd.endpoint(), "/muster/", Duration.ofSeconds(5)).withTls(fleetPki.tls(FleetPki.ROOT)))) {
                FleetAuth auth = new FleetAuth(root);
                auth.setUp();
                auth.addHost("web1", List.of("file"));
            }
            Credentials first = fleetPki.issueHost("web1");
            Credentials second = fleetPki.issueHost("web1"); // added twice: both are good until a rotation
            try (Etcd old = as(etcd, fleetPki, first, "first")) {
                put(old);
            }

            FleetPki.Rotated rotated = fleetPki.rotateHost("web1");

            assertThat(rotated.revoked()).isEqualTo(2);
            for (Credentials revoked : List.of(first, second)) {
                try (Etcd old = as(etcd, fleetPki, revoked, "old-" + revoked.certificate().getSerialNumber())) {
                    assertThatThrownBy(() -> put(old)).isInstanceOf(EtcdUnreachableException.class);
                }
            }
            try (Etcd renewed = as(etcd, fleetPki, rotated.credentials(), "renewed")) {
                put(renewed);
            }
            assertThat(FleetPki.openOrCreate(pki, List.of()).rotateHost("web1").revoked()).as("the renewed one, read back from issued.txt").isEqualTo(1);
        }
    }

    @Test
    void theRevocationListIsSignedByTheCaAndListsTheRevokedSerials() throws Exception {
        FleetPki fleetPki = FleetPki.openOrCreate(pki, List.of());
        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        X509CRL empty = (X509CRL) x509.generateCRL(new ByteArrayInputStream(Files.readAllBytes(pki.resolve(FleetPki.CRL))));
        empty.verify(fleetPki.caCertificate().getPublicKey());
        assertThat(empty.getRevokedCertificates()).isNull();

        Credentials old = fleetPki.issueHost("web1");
        fleetPki.rotateHost("web1");

        X509CRL list = (X509CRL) x509.generateCRL(new ByteArrayInputStream(Files.readAllBytes(pki.resolve(FleetPki.CRL))));
        list.verify(fleetPki.caCertificate().getPublicKey());
        assertThat(list.isRevoked(old.certificate())).isTrue();
        assertThat(Files.readString(pki.resolve("issued.txt"))).matches("(?s)" + old.certificate().getSerialNumber().toString(16)
                + " host-web1 \\d{4}-\\S*Z \\d{4}-\\S*Z\n[0-9a-f]+ host-web1 - \\d{4}-\\S*Z\n");
        assertThat(Files.getPosixFilePermissions(pki.resolve("issued.txt"))).hasToString("[OWNER_READ, OWNER_WRITE]");
    }

    @Test
    void aRotationIsDueForHostsWhoseNewestGoodCertificateIsOldOrOfUnknownAge() throws Exception {
        FleetPki fleetPki = FleetPki.openOrCreate(pki, List.of());
        Files.writeString(pki.resolve("issued.txt"), "1f host-old -\n2f host-gone 2026-01-01T00:00:00Z\n3f remote-run1-host-web1 -\n");
        fleetPki.issueHost("web1");

        assertThat(fleetPki.hostsIssuedBefore(java.time.Instant.now().minusSeconds(3600)))
                .as("an earlier muster's line has no time of issue: due; a revoked one and a run's host are not").containsExactly("old");
        assertThat(fleetPki.hostsIssuedBefore(java.time.Instant.now().plusSeconds(1))).containsExactly("old", "web1");

        fleetPki.issueHost("old");
        assertThat(fleetPki.hostsIssuedBefore(java.time.Instant.now().minusSeconds(3600))).as("its newest certificate counts").isEmpty();
        assertThat(fleetPki.revokeAllBut("old", BigInteger.valueOf(0x1f))).isEqualTo(1);
        assertThat(fleetPki.hostsIssuedBefore(java.time.Instant.now().minusSeconds(3600))).containsExactly("old");
    }
}
