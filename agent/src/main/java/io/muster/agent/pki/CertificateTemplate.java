package io.muster.agent.pki;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * What a fleet certificate says, and its signing with the CA's EC key (SHA256withECDSA). The JDK makes the keys
 * and the signature and parses the result; only the DER of the to-be-signed part is written here, from this fixed
 * shape: version 3, a random 128-bit serial, CN-only names, and the extensions TLS checks (basic constraints, key
 * usage, extended key usage, subject alternative names).
 *
 * @param subject the common name: for a client, the etcd user it logs in as
 * @param ca true for the CA itself
 * @param client may authenticate a TLS client (an agent, the coordinator)
 * @param server may authenticate a TLS server (etcd)
 * @param names the server's DNS names and IP addresses (subject alternative names), empty for a client
 * @param validity from now
 */
record CertificateTemplate(String subject, boolean ca, boolean client, boolean server, List<String> names, Duration validity) {
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String COMMON_NAME = "2.5.4.3";
    private static final String BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String KEY_USAGE = "2.5.29.15";
    private static final String EXTENDED_KEY_USAGE = "2.5.29.37";
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    /** Clocks of the fleet disagree a little: a certificate made now is valid from a few minutes ago. */
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);
    private static final SecureRandom RANDOM = new SecureRandom();

    CertificateTemplate {
        names = List.copyOf(names);
    }

    /**
     * This certificate for {@code key}, signed by {@code issuerKey} in the name of {@code issuer} (the subject's
     * own name and key for the self-signed CA).
     */
    X509Certificate sign(PublicKey key, String issuer, PrivateKey issuerKey) throws GeneralSecurityException {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).withNano(0);
        byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
        byte[] toBeSigned = Der.sequence(
                Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
                Der.integer(new BigInteger(128, RANDOM).setBit(127)),
                algorithm,
                name(issuer),
                Der.sequence(Der.time(now.minus(CLOCK_SKEW)), Der.time(now.plus(validity))),
                name(subject),
                key.getEncoded(), // the JDK's encoding of a public key is X.509's SubjectPublicKeyInfo
                Der.explicit(3, Der.sequence(extensions())));
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(issuerKey);
        signer.update(toBeSigned);
        byte[] certificate = Der.sequence(toBeSigned, algorithm, Der.bits(signer.sign(), 0));
        return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(certificate));
    }

    /** An X.500 name of the common name alone. */
    static byte[] name(String commonName) {
        return Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8(commonName))));
    }

    private byte[][] extensions() throws GeneralSecurityException {
        List<byte[]> extensions = new ArrayList<>();
        extensions.add(extension(BASIC_CONSTRAINTS, true, ca ? Der.sequence(Der.bool(true)) : Der.sequence()));
        // digitalSignature (bit 0) for TLS with an EC key; keyCertSign and cRLSign (bits 5, 6) for the CA
        extensions.add(extension(KEY_USAGE, true, ca ? Der.bits(new byte[] {0x06}, 1) : Der.bits(new byte[] {(byte) 0x80}, 7)));
        if (!ca) {
            List<byte[]> purposes = new ArrayList<>();
            if (server) purposes.add(Der.oid(SERVER_AUTH));
            if (client) purposes.add(Der.oid(CLIENT_AUTH));
            extensions.add(extension(EXTENDED_KEY_USAGE, false, Der.sequence(purposes.toArray(byte[][]::new))));
        }
        if (!names.isEmpty()) extensions.add(extension(SUBJECT_ALT_NAME, false, Der.sequence(alternativeNames())));
        return extensions.toArray(byte[][]::new);
    }

    /** dNSName [2] for a name, iPAddress [7] for an address literal. */
    private byte[][] alternativeNames() throws GeneralSecurityException {
        List<byte[]> encoded = new ArrayList<>();
        for (String name : names) {
            if (name.matches("[0-9.]+") || name.contains(":")) {
                try {
                    encoded.add(Der.implicit(7, InetAddress.getByName(name).getAddress())); // a literal: no lookup
                } catch (java.net.UnknownHostException e) {
                    throw new GeneralSecurityException("not an IP address: " + name, e);
                }
            } else {
                encoded.add(Der.implicit(2, name.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            }
        }
        return encoded.toArray(byte[][]::new);
    }

    private static byte[] extension(String oid, boolean critical, byte[] value) {
        return critical ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octets(value)) : Der.sequence(Der.oid(oid), Der.octets(value));
    }
}
