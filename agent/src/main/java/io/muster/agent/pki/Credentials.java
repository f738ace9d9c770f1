package io.muster.agent.pki;

import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/** A certificate and its private key: who a TLS peer is, with the proof. */
public record Credentials(X509Certificate certificate, PrivateKey key) {
    /** The certificate's common name: for a client of etcd, the user it acts as. */
    public String commonName() {
        return certificate.getSubjectX500Principal().getName().replaceFirst("^CN=", "");
    }

    /** Writes {@code dir/name.crt} and {@code dir/name.key}. */
    public void write(Path dir, String name) throws IOException {
        PemFiles.writeSecret(dir.resolve(name + ".crt"), PemFiles.pem(certificate));
        PemFiles.writeSecret(dir.resolve(name + ".key"), PemFiles.pem(key));
    }

    public static Credentials read(Path dir, String name) throws IOException {
        return new Credentials(PemFiles.readCertificate(dir.resolve(name + ".crt")), PemFiles.readKey(dir.resolve(name + ".key")));
    }
}
