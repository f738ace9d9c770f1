package io.muster.agent.etcd;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the fleet's etcd is, and how long a command waits for it: the {@code --etcd}, {@code --namespace} and
 * {@code --connect-timeout} flags every fleet command takes.
 *
 * @param endpoints client URLs ({@code http://host:port})
 * @param namespace the prefix of every key muster writes, ending in '/'
 * @param connectTimeout how long a call may wait for an answer before etcd counts as unreachable
 * @param tls the client's certificate and the CA to trust when the endpoints are {@code https://}; null for {@code
 *     http://}
 */
public record EtcdOptions(List<URI> endpoints, String namespace, Duration connectTimeout, EtcdTls tls) {
    public static final String DEFAULT_ENDPOINT = "http://127.0.0.1:2379";
    public static final String DEFAULT_NAMESPACE = "/muster/";
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    public EtcdOptions {
        endpoints = List.copyOf(endpoints);
        if (endpoints.isEmpty()) throw new IllegalArgumentException("--etcd: expected at least one URL");
        if (namespace.isEmpty() || namespace.contains("\0")) throw new IllegalArgumentException("--namespace: expected a key prefix such as /muster/");
        if (!namespace.endsWith("/")) namespace = namespace + "/";
        if (connectTimeout.isNegative() || connectTimeout.isZero()) throw new IllegalArgumentException("--connect-timeout: expected a positive number of seconds");
        boolean https = endpoints.getFirst().getScheme().equals("https");
        if (endpoints.stream().anyMatch(uri -> uri.getScheme().equals("https") != https)) {
            throw new IllegalArgumentException("--etcd: expected all URLs http:// or all https://");
        }
        if (https && tls == null) tls = EtcdTls.SERVER_ONLY;
        if (!https && tls != null) throw new IllegalArgumentException("--etcd-cert, --etcd-key and --etcd-ca need https:// URLs in --etcd");
    }

    /** Plain {@code http://} endpoints, or TLS with the JDK's CAs for {@code https://} ones. */
    public EtcdOptions(List<URI> endpoints, String namespace, Duration connectTimeout) {
        this(endpoints, namespace, connectTimeout, null);
    }

    /** These options with the client certificate and CA of {@code tls}. */
    public EtcdOptions withTls(EtcdTls tls) {
        return new EtcdOptions(endpoints, namespace, connectTimeout, tls);
    }

    /**
     * Options from the flags as written: {@code endpoints} is {@code URL[,URL…]}; a URL without a scheme is
     * taken as {@code http://}.
     *
     * @throws IllegalArgumentException naming the flag and what was expected
     */
    public static EtcdOptions of(String endpoints, String namespace, Duration connectTimeout) {
        List<URI> uris = new ArrayList<>();
        for (String written : endpoints.split(",")) {
            String trimmed = written.strip();
            if (trimmed.isEmpty()) continue;
            uris.add(uri(trimmed.contains("://") ? trimmed : "http://" + trimmed, written));
        }
        return new EtcdOptions(uris, namespace, connectTimeout);
    }

    /** {@code $MUSTER_ETCD} when set, else {@link #DEFAULT_ENDPOINT}. */
    public static String defaultEndpoints() {
        String fromEnv = System.getenv("MUSTER_ETCD");
        return fromEnv == null || fromEnv.isBlank() ? DEFAULT_ENDPOINT : fromEnv;
    }

    private static URI uri(String url, String written) {
        try {
            URI uri = new URI(url);
            if (!List.of("http", "https").contains(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0
                    || !(uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/"))) {
                throw new IllegalArgumentException("--etcd: expected http://HOST:PORT or https://HOST:PORT, got " + written);
            }
            return uri;
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("--etcd: expected http://HOST:PORT, got " + written);
        }
    }

    /** The endpoints as the user would write them, for messages. */
    public String describe() {
        return String.join(",", endpoints.stream().map(URI::toString).toList());
    }
}
