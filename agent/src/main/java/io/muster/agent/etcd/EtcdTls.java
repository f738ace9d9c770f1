package io.muster.agent.etcd;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

/**
 * How a client proves itself to etcd and knows etcd: the {@code --etcd-cert}, {@code --etcd-key} and {@code
 * --etcd-ca} files (PEM). With etcd's {@code --client-cert-auth} and auth enabled, the certificate's common name is
 * the etcd user the client acts as.
 *
 * @param certificate the client's certificate, or null for none (an etcd without client-certificate auth)
 * @param key its private key (PKCS#8), given with the certificate
 * @param ca the certificate of the CA that signed etcd's, or null to trust the JDK's CAs
 */
public record EtcdTls(Path certificate, Path key, Path ca) {
    /** TLS with the JDK's CAs and no client certificate: what an {@code https://} URL alone means. */
    public static final EtcdTls SERVER_ONLY = new EtcdTls(null, null, null);

    public EtcdTls {
        if ((certificate == null) != (key == null)) throw new IllegalArgumentException("--etcd-cert and --etcd-key go together: expected both");
    }

    /** A netty client context for jetcd: HTTP/2 by ALPN, trusting {@link #ca} when given. */
    public SslContext sslContext() throws IOException {
        for (Path file : new Path[] {certificate, key, ca}) {
            if (file != null && !Files.isReadable(file)) throw new IOException("cannot read " + file);
        }
        try {
            var builder = GrpcSslContexts.forClient();
            if (ca != null) builder.trustManager(ca.toFile());
            if (certificate != null) builder.keyManager(new FileKeyManager(certificate, key)); // read again when rotated
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IOException("cannot use the etcd TLS files " + flags() + ": " + e.getMessage(), e);
        }
    }

    /** The flags that give these files to a fleet command. */
    public String flags() {
        return "--etcd-cert " + certificate + " --etcd-key " + key + " --etcd-ca " + ca;
    }
}
