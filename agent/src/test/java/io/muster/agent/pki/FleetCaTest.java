package io.muster.agent.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SignatureException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fleet's CA: what its certificates say, as the JDK reads them (etcd and netty accept them: FleetAuthTest). */
class FleetCaTest {
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

    @TempDir
    Path dir;

    @Test
    void theCaIsMadeOnceAndSignsClientAndServerCertificates() throws Exception {
        FleetCa ca = FleetCa.openOrCreate(dir.resolve("pki"));
        assertThat(FleetCa.openOrCreate(dir.resolve("pki")).certificate()).as("read, not made again").isEqualTo(ca.certificate());
        assertThat(ca.certificate().getBasicConstraints()).as("a CA").isGreaterThanOrEqualTo(0);
        ca.certificate().verify(ca.certificate().getPublicKey());

        Credentials web1 = ca.client("host-web1");
        X509Certificate client = web1.certificate();
        client.verify(ca.certificate().getPublicKey());
        client.checkValidity();
        assertThat(web1.commonName()).isEqualTo("host-web1");
        assertThat(client.getBasicConstraints()).as("not a CA").isEqualTo(-1);
        assertThat(client.getExtendedKeyUsage()).containsExactly(CLIENT_AUTH);
        assertThat(client.getIssuerX500Principal()).isEqualTo(ca.certificate().getSubjectX500Principal());

        X509Certificate server = ca.server(List.of("127.0.0.1", "etcd.example.com")).certificate();
        assertThat(server.getExtendedKeyUsage()).containsExactly(SERVER_AUTH);
        assertThat(server.getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1))).toList()).containsExactly("127.0.0.1", "etcd.example.com");

        FleetCa other = FleetCa.openOrCreate(dir.resolve("other"));
        assertThatThrownBy(() -> client.verify(other.certificate().getPublicKey())).isInstanceOf(SignatureException.class);
    }

    @Test
    void credentialsAreWrittenOwnerOnlyAndReadBack() throws Exception {
        FleetCa ca = FleetCa.openOrCreate(dir.resolve("pki"));
        Credentials written = ca.client("coordinator");
        written.write(dir.resolve("out"), "coordinator");
        assertThat(Files.getPosixFilePermissions(dir.resolve("out"))).hasToString("[OWNER_READ, OWNER_WRITE, OWNER_EXECUTE]");
        assertThat(Files.getPosixFilePermissions(dir.resolve("out/coordinator.key"))).hasToString("[OWNER_READ, OWNER_WRITE]");
        Credentials read = Credentials.read(dir.resolve("out"), "coordinator");
        assertThat(read.certificate()).isEqualTo(written.certificate());
        assertThat(read.key()).isEqualTo(written.key());
        assertThat(Files.list(dir.resolve("out"))).as("no temporary file left").hasSize(2);
    }

    @Test
    void aFileWithoutPemIsNamedInTheError() throws Exception {
        Path broken = Files.writeString(dir.resolve("web1.crt"), "not a certificate\n");
        assertThatThrownBy(() -> PemFiles.readCertificate(broken)).hasMessage(broken + ":1:1: expected a PEM block '-----BEGIN CERTIFICATE-----'");
    }
}
