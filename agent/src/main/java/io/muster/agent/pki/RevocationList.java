package io.muster.agent.pki;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An X.509 v2 certificate revocation list (RFC 5280 section 5) of the certificates {@code revoked} (serial number
 * to when), signed with the CA's EC key as {@link CertificateTemplate} signs certificates. etcd reads it at each new
 * client connection ({@code --client-crl-file}) and refuses a certificate whose serial is listed.
 */
record RevocationList(Map<BigInteger, Instant> revoked, Duration validity) {
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";

    RevocationList {
        revoked = Map.copyOf(revoked);
    }

    /** The list, issued now by {@code issuer} (the CA's common name) and signed with its key. */
    X509CRL sign(String issuer, PrivateKey issuerKey) throws GeneralSecurityException {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).withNano(0);
        byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
        List<byte[]> fields = new ArrayList<>(List.of(
                Der.integer(BigInteger.ONE), // v2
                algorithm,
                CertificateTemplate.name(issuer),
                Der.time(now),
                Der.time(now.plus(validity))));
        if (!revoked.isEmpty()) { // an empty list of entries is left out, not written empty (RFC 5280 5.1.2.6)
            fields.add(Der.sequence(revoked.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> Der.sequence(Der.integer(e.getKey()), Der.time(e.getValue().atZone(ZoneOffset.UTC))))
                    .toArray(byte[][]::new)));
        }
        byte[] toBeSigned = Der.sequence(fields.toArray(byte[][]::new));
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(issuerKey);
        signer.update(toBeSigned);
        byte[] list = Der.sequence(toBeSigned, algorithm, Der.bits(signer.sign(), 0));
        return (X509CRL) CertificateFactory.getInstance("X.509").generateCRL(new ByteArrayInputStream(list));
    }
}
