package io.muster.agent.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.KeyPairGenerator;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The fleet's certificate authority: a self-signed EC P-256 certificate and key in a directory ({@code ca.crt},
 * {@code ca.key}), made the first time and read after. It signs the certificates of etcd (server) and of its
 * clients, whose common name is the etcd user they act as.
 */
public final class FleetCa {
    public static final String FILE = "ca";
    static final Duration CA_VALIDITY = Duration.ofDays(3650);
    /**
     * A certificate lives as long as a machine is likely to: a host is revoked by its etcd user, and a stolen or
     * replaced certificate by the {@linkplain #revocationList revocation list}.
     */
    static final Duration LEAF_VALIDITY = Duration.ofDays(3650);

    private final Credentials ca;

    private FleetCa(Credentials ca) {
        this.ca = ca;
    }

    /** The CA kept in {@code dir}, made there (0700, its key 0600) when there is none. */
    public static FleetCa openOrCreate(Path dir) throws IOException {
        if (Files.exists(dir.resolve(FILE + ".key"))) return new FleetCa(Credentials.read(dir, FILE));
        try {
            KeyPair pair = newKey();
            String name = "muster fleet CA";
            X509Certificate certificate = new CertificateTemplate(name, true, false, false, List.of(), CA_VALIDITY)
                    .sign(pair.getPublic(), name, pair.getPrivate());
            Credentials ca = new Credentials(certificate, pair.getPrivate());
            ca.write(dir, FILE);
            return new FleetCa(ca);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot make EC P-256 certificates", e);
        }
    }

    public X509Certificate certificate() {
        return ca.certificate();
    }

    /** Before a host's name in its etcd user's name. */
    public static final String HOST_USER = "host-";

    /** The etcd user of the fleet's {@code host}: the common name of its certificates. */
    public static String hostUser(String host) {
        return HOST_USER + io.muster.agent.etcd.Keys.checkHost(host);
    }

    /** A client certificate: etcd takes {@code user} (its common name) as the user it acts as. */
    public Credentials client(String user) {
        return issue(new CertificateTemplate(user, false, true, false, List.of(), LEAF_VALIDITY));
    }

    /**
     * A client certificate for a key made elsewhere (a host renewing its own: its private key never leaves it).
     *
     * @param key an EC P-256 public key
     * @throws IllegalArgumentException when {@code key} is not one
     */
    public X509Certificate certify(String user, PublicKey key) {
        if (!(key instanceof ECPublicKey ec) || ec.getParams().getCurve().getField().getFieldSize() != 256) {
            throw new IllegalArgumentException("expected an EC P-256 public key, got " + key.getAlgorithm());
        }
        try {
            return new CertificateTemplate(user, false, true, false, List.of(), LEAF_VALIDITY).sign(key, ca.commonName(), ca.key());
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot certify a key for " + user + ": " + e.getMessage(), e);
        }
    }

    /** A new EC P-256 key pair, as every certificate of the fleet has. */
    public static KeyPair newKeyPair() {
        try {
            return newKey();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot make EC P-256 keys", e);
        }
    }

    /** etcd's server certificate, for the DNS names and IP addresses clients reach it by. */
    public Credentials server(List<String> names) {
        return issue(new CertificateTemplate("etcd", false, false, true, names, LEAF_VALIDITY));
    }

    /**
     * The list of the certificates {@code revoked} (serial number to when), signed by this CA; it is good for as
     * long as the certificates it lists could be.
     */
    public X509CRL revocationList(Map<BigInteger, Instant> revoked) {
        try {
            return new RevocationList(revoked, LEAF_VALIDITY).sign(ca.commonName(), ca.key());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a revocation list: " + e.getMessage(), e);
        }
    }

    private Credentials issue(CertificateTemplate template) {
        try {
            KeyPair pair = newKey();
            String issuer = ca.commonName();
            return new Credentials(template.sign(pair.getPublic(), issuer, ca.key()), pair.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot issue a certificate for " + template.subject() + ": " + e.getMessage(), e);
        }
    }

    private static KeyPair newKey() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }
}
