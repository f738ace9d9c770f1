package io.muster.coordinator.http;

import com.sun.net.httpserver.HttpServer;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.engine.metrics.Metrics;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The coordinator's HTTP API, event stream, {@code /metrics} and web page, on the JDK's own HTTP server
 * ({@code com.sun.net.httpserver}, which the Prometheus exporter uses already): one handler per request on a
 * virtual thread, so each open event stream costs a parked virtual thread, not a platform one.
 *
 * <p>Every coordinator serves it, the followers too, and answers from etcd, which every coordinator reads alike:
 * a page stays up through a failover, and nobody needs to know which coordinator leads. Changes (a rollback)
 * are transactions in etcd, as the CLI's, so any coordinator may make them.
 */
public final class ApiServer implements AutoCloseable {
    private static final int EVENTS_KEPT = 10_000;

    private final HttpServer server;
    private final ExecutorService threads;
    private final EventLog log;
    private final FleetFeed feed;

    private ApiServer(HttpServer server, ExecutorService threads, EventLog log, FleetFeed feed) {
        this.server = server;
        this.threads = threads;
        this.log = log;
        this.feed = feed;
    }

    /**
     * Lists the fleet, then serves on {@code options.listen()} until closed.
     *
     * @param name this coordinator's name in the election
     * @param leading whether it leads now
     * @param compiles the compile times its coordinator reports
     * @throws ListenException when the address cannot be listened on
     * @throws IOException when the token file cannot be read, or holds no token
     */
    public static ApiServer start(Etcd etcd, ApiOptions options, String name, BooleanSupplier leading, CompileHistogram compiles)
            throws IOException, EtcdUnreachableException {
        Optional<ApiToken> token = options.tokenFile() == null ? Optional.empty() : Optional.of(ApiToken.read(options.tokenFile()));
        InetSocketAddress address = address(options.listen());
        EventLog log = new EventLog(EVENTS_KEPT);
        FleetFeed feed = new FleetFeed(etcd, log);
        HttpServer server;
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            feed.close();
            throw new ListenException("cannot listen on " + options.listen() + " (--listen): " + e.getMessage(), e);
        }
        ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("muster-api-", 1).factory());
        server.setExecutor(threads);
        HostCheck hostCheck = new HostCheck(options.hosts(), server.getAddress().getPort());
        server.createContext("/api/v1/events", new EventStream(log)).getFilters().add(hostCheck);
        server.createContext("/api/v1", new ApiHandler(etcd, feed, new HostDetails(etcd, log), token, name, leading)).getFilters().add(hostCheck);
        server.createContext("/metrics", new MetricsHandler(new FleetMetrics(feed, leading, compiles).registry())).getFilters().add(hostCheck);
        server.createContext("/", new StaticAssets()).getFilters().add(hostCheck);
        server.start();
        return new ApiServer(server, threads, log, feed);
    }

    /** The address to listen on is taken, or not this machine's. */
    public static final class ListenException extends IOException {
        ListenException(String message, IOException cause) {
            super(message, cause);
        }
    }

    /** {@code HOST:PORT} as an address; an empty host is every interface. */
    public static InetSocketAddress address(String listen) {
        String problem = Metrics.listenProblem(listen);
        if (problem != null) throw new IllegalArgumentException("--listen: " + problem);
        int colon = listen.lastIndexOf(':');
        int port = Integer.parseInt(listen.substring(colon + 1));
        String host = listen.substring(0, colon).replaceAll("^\\[(.*)]$", "$1");
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    /** The port it listens on (the one chosen, for port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The page's address, for the coordinator's start-up line. */
    public String url() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getHostString();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/";
    }

    @Override
    public void close() {
        log.close(); // the event streams end, so stop() need not wait for them
        server.stop(1);
        threads.shutdownNow();
        feed.close();
    }
}
