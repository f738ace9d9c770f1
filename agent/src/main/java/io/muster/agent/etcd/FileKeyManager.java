package io.muster.agent.etcd;

import io.muster.agent.pki.PemFiles;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The client certificate and key a connection to etcd shows, read from their files again at a new connection when
 * the files changed: an agent whose certificate the coordinator rotated uses the new one from its next connection
 * on, without a restart. The two files are replaced one after the other, so for a moment they may not belong
 * together: a certificate whose key is not the key beside it is not taken, and the last pair that matched is shown.
 */
final class FileKeyManager extends X509ExtendedKeyManager {
    private static final String ALIAS = "muster";
    private static final byte[] PROBE = "muster: does this key match its certificate".getBytes(StandardCharsets.US_ASCII);

    private final Path certificateFile;
    private final Path keyFile;
    private Pair current; // guarded by this
    private FileTime certificateTime; // guarded by this: of the files current was read from
    private FileTime keyTime; // guarded by this

    private record Pair(X509Certificate certificate, PrivateKey key) {}

    /** @throws IOException when the files cannot be read, or the key is not the certificate's */
    FileKeyManager(Path certificate, Path key) throws IOException {
        this.certificateFile = certificate;
        this.keyFile = key;
        FileTime c = Files.getLastModifiedTime(certificate), k = Files.getLastModifiedTime(key);
        Pair pair = read();
        if (!matches(pair)) throw new IOException(key + " is not the key of the certificate " + certificate);
        current = pair;
        certificateTime = c;
        keyTime = k;
    }

    private synchronized Pair current() {
        try {
            FileTime c = Files.getLastModifiedTime(certificateFile), k = Files.getLastModifiedTime(keyFile);
            if (!c.equals(certificateTime) || !k.equals(keyTime)) {
                Pair pair = read();
                if (matches(pair)) {
                    current = pair;
                    certificateTime = c;
                    keyTime = k;
                }
            }
        } catch (IOException e) {
            // being replaced, or gone: the pair read last still proves who we are
        }
        return current;
    }

    private Pair read() throws IOException {
        return new Pair(PemFiles.readCertificate(certificateFile), PemFiles.readKey(keyFile));
    }

    private static boolean matches(Pair pair) {
        try {
            Signature sign = Signature.getInstance("SHA256withECDSA");
            sign.initSign(pair.key());
            sign.update(PROBE);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance("SHA256withECDSA");
            verify.initVerify(pair.certificate().getPublicKey());
            verify.update(PROBE);
            return verify.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return new String[] {ALIAS};
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return ALIAS;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return ALIAS;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return null; // a client's key: it serves nothing
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? new X509Certificate[] {current().certificate()} : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? current().key() : null;
    }
}
