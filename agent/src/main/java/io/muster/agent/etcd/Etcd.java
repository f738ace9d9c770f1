package io.muster.agent.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.GetOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A connection to the fleet's etcd, every key under the namespace. Calls fail fast when etcd is away
 * (gRPC's wait-for-ready is off: a call to a dead endpoint would otherwise wait forever), and {@link #await}
 * bounds every wait by the connect timeout, so a command never hangs on an unreachable etcd.
 */
public final class Etcd implements AutoCloseable {
    private final Client client;
    private final EtcdOptions options;

    private Etcd(Client client, EtcdOptions options) {
        this.client = client;
        this.options = options;
    }

    /**
     * A client for {@code options}, not yet connected: gRPC connects on the first call.
     *
     * @throws IllegalArgumentException when the TLS files cannot be read or used, naming them
     */
    public static Etcd client(EtcdOptions options) {
        ClientBuilder builder = Client.builder();
        if (options.tls() != null) {
            try {
                builder.sslContext(options.tls().sslContext());
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        Client client = builder
                .endpoints(options.endpoints().stream().map(java.net.URI::toString).toArray(String[]::new))
                .namespace(ByteSequence.from(options.namespace(), java.nio.charset.StandardCharsets.UTF_8))
                .connectTimeout(options.connectTimeout())
                .keepaliveTime(Duration.ofSeconds(30))
                .keepaliveTimeout(Duration.ofSeconds(10))
                .waitForReady(false)
                .build();
        return new Etcd(client, options);
    }

    /** A client whose etcd has answered once; else the one line to show, naming the endpoints. */
    public static Etcd connect(EtcdOptions options) throws EtcdUnreachableException {
        Etcd etcd = client(options);
        try {
            etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY, GetOption.builder().withCountOnly(true).build()));
            return etcd;
        } catch (EtcdUnreachableException e) {
            etcd.close();
            throw e;
        }
    }

    public Client jetcd() {
        return client;
    }

    public KV kv() {
        return client.getKVClient();
    }

    public EtcdOptions options() {
        return options;
    }

    /**
     * The result of {@code call}, waiting at most the connect timeout.
     *
     * @throws EtcdUnreachableException when etcd did not answer in time or the call failed for want of it
     */
    public <T> T await(CompletableFuture<T> call) throws EtcdUnreachableException {
        try {
            return call.get(options.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            throw unreachable("no answer within " + seconds(options.connectTimeout()), e);
        } catch (ExecutionException e) {
            throw unreachable(reason(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable("interrupted", e);
        }
    }

    private EtcdUnreachableException unreachable(String why, Throwable cause) {
        // etcd answered, and said no: the user of the client certificate may not do this (or is no user)
        if (why.contains("permission denied") || why.startsWith("unauthenticated") || why.contains("user name not found")) {
            return new EtcdUnreachableException("etcd at " + options.describe() + " refused: " + why, cause);
        }
        String hint = options.tls() != null && options.tls().certificate() == null
                ? " (an etcd that wants client certificates needs --etcd-cert, --etcd-key and --etcd-ca)" : "";
        return new EtcdUnreachableException("cannot reach etcd at " + options.describe() + ": " + why + hint, cause);
    }

    /**
     * gRPC's status text without its class names, on one line: "UNAVAILABLE: io exception" reads as "unavailable
     * (io exception)".
     */
    static String reason(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            if (root instanceof io.grpc.StatusRuntimeException) break;
            root = root.getCause();
        }
        if (root instanceof io.grpc.StatusRuntimeException status) {
            String description = status.getStatus().getDescription();
            // the first line says it: what follows (a reply's headers and trailers) would break the one-line message
            if (description != null) description = description.lines().findFirst().orElse("");
            String code = status.getStatus().getCode().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
            return description == null ? code : code + " (" + description + ")";
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }

    private static String seconds(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    @Override
    public void close() {
        client.close();
    }
}
