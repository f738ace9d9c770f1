package io.muster.agent.pki;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CRLException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * Certificates, revocation lists and EC keys in PEM ({@code CERTIFICATE}, {@code X509 CRL}, PKCS#8 {@code PRIVATE
 * KEY}: what etcd and netty read).
 * Every file is written 0600 in a directory made 0700, whole or not at all (a temporary file moved in place).
 */
public final class PemFiles {
    private PemFiles() {}

    public static String pem(X509Certificate certificate) {
        try {
            return pem("CERTIFICATE", certificate.getEncoded());
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("a certificate this JDK parsed cannot be encoded", e);
        }
    }

    public static String pem(X509CRL list) {
        try {
            return pem("X509 CRL", list.getEncoded());
        } catch (CRLException e) {
            throw new IllegalStateException("a revocation list this JDK parsed cannot be encoded", e);
        }
    }

    public static String pem(PrivateKey key) {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** Writes {@code text} to {@code file}, readable by its owner only. */
    public static void writeSecret(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path temporary = Files.createTempFile(dir, "." + file.getFileName(), ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(temporary, text, StandardCharsets.US_ASCII);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** @throws IOException naming the file when it holds no PEM certificate */
    public static X509Certificate readCertificate(Path file) throws IOException {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(decode(file, "CERTIFICATE")));
        } catch (GeneralSecurityException e) {
            throw new IOException(file + ": not a valid certificate: " + e.getMessage(), e);
        }
    }

    /** @throws IOException naming the file when it holds no unencrypted PKCS#8 EC key */
    public static PrivateKey readKey(Path file) throws IOException {
        try {
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(decode(file, "PRIVATE KEY")));
        } catch (GeneralSecurityException e) {
            throw new IOException(file + ": expected an EC private key (PKCS#8 PEM): " + e.getMessage(), e);
        }
    }

    private static byte[] decode(Path file, String type) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        String begin = "-----BEGIN " + type + "-----";
        String end = "-----END " + type + "-----";
        int from = text.indexOf(begin);
        int to = text.indexOf(end, Math.max(from, 0));
        if (from < 0 || to < 0) throw new IOException(file + ":1:1: expected a PEM block '" + begin + "'");
        try {
            return Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": the PEM block is not base64: " + e.getMessage(), e);
        }
    }
}
