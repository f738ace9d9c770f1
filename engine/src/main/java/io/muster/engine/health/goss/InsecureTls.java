package io.muster.engine.health.goss;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/** goss's {@code allow-insecure: true}: a TLS context that accepts any certificate, for that one health-check request. */
final class InsecureTls {
    private InsecureTls() {}

    static SSLContext context() {
        TrustManager any = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {any}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has TLS", e);
        }
    }
}
