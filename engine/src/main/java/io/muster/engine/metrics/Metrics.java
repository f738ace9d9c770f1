package io.muster.engine.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The engine's Prometheus metrics, in a registry of their own (so two runs in one JVM, as in tests, do not
 * share counters), plus the JVM's. What mgmt declares and never updates, muster counts.
 */
public final class Metrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Gauge resources = Gauge.builder().name("muster_resources")
            .help("Resources in the running graph, by kind").labelNames("kind").withoutExemplars().register(registry);
    private final Counter checkApplies = Counter.builder().name("muster_checkapply_total")
            .help("checkApply calls, by kind; apply=false in noop; eventful when it changed something; errorful when it failed")
            .labelNames("kind", "apply", "eventful", "errorful").withoutExemplars().register(registry);
    private final Counter failuresTotal = Counter.builder().name("muster_failures_total")
            .help("Failed checkApply or watch attempts, by kind; soft when a retry follows, hard when retries are exhausted")
            .labelNames("kind", "failure").withoutExemplars().register(registry);
    /** Not {@code muster_failures}: that is the counter's family name (its samples are {@code muster_failures_total}). */
    private final Gauge failing = Gauge.builder().name("muster_resources_failing")
            .help("Resources failing now, by kind; soft while retrying, hard once retries are exhausted")
            .labelNames("kind", "failure").withoutExemplars().register(registry);
    private final Gauge graphStart = Gauge.builder().name("muster_graph_start_time_seconds")
            .help("When the running graph started (Unix time)").withoutExemplars().register(registry);
    private final Gauge converged = Gauge.builder().name("muster_converged")
            .help("1 when the graph is converged, else 0").withoutExemplars().register(registry);
    private final Set<String> kindsSeen = new HashSet<>();

    public Metrics() {
        JvmMetrics.builder().register(registry);
        converged.set(0);
    }

    /** A graph started (or replaced the previous one) with this many resources of each kind. */
    public synchronized void graph(Map<String, Long> resourcesByKind, long startMillis) {
        for (String kind : kindsSeen) if (!resourcesByKind.containsKey(kind)) resources.labelValues(kind).set(0);
        resourcesByKind.forEach((kind, n) -> {
            resources.labelValues(kind).set(n);
            for (String failure : new String[] {"soft", "hard"}) { // present from the start, so a scrape sees zeros
                failing.labelValues(kind, failure).inc(0);
                failuresTotal.labelValues(kind, failure).inc(0);
            }
        });
        kindsSeen.addAll(resourcesByKind.keySet());
        graphStart.set(startMillis / 1000.0);
    }

    public void checkApply(String kind, boolean apply, boolean eventful, boolean errorful) {
        checkApplies.labelValues(kind, Boolean.toString(apply), Boolean.toString(eventful), Boolean.toString(errorful)).inc();
    }

    /** One failed attempt; {@code hard} when no retry follows. */
    public void failure(String kind, boolean hard) {
        failuresTotal.labelValues(kind, label(hard)).inc();
    }

    /** A resource entered ({@code delta} 1) or left (-1) a failing state. */
    public void failing(String kind, boolean hard, int delta) {
        failing.labelValues(kind, label(hard)).inc(delta);
    }

    public void converged(boolean value) {
        converged.set(value ? 1 : 0);
    }

    /** A {@code /metrics} endpoint being served. */
    public interface Endpoint extends AutoCloseable {
        /** The port it listens on: the one asked for, or the one chosen for port 0. */
        int port();

        @Override
        void close();
    }

    /** Serves {@code /metrics} on {@code host:port} until closed. */
    public Endpoint serve(String listen) throws IOException {
        int port = port(listen);
        String host = listen.substring(0, listen.lastIndexOf(':'));
        HTTPServer server = HTTPServer.builder().hostname(host.isEmpty() ? "0.0.0.0" : host).port(port)
                .registry(registry).buildAndStart();
        return new Endpoint() {
            @Override
            public int port() {
                return server.getPort();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }

    /** What is wrong with {@code listen} as {@link #serve} takes it, or null: a usage mistake, told before anything runs. */
    public static String listenProblem(String listen) {
        try {
            port(listen);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static int port(String listen) {
        int colon = listen.lastIndexOf(':');
        if (colon < 0) throw new IllegalArgumentException("expected HOST:PORT, got '" + listen + "'");
        int port;
        try {
            port = Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected HOST:PORT with a numeric port, got '" + listen + "'");
        }
        if (port < 0 || port > 65535) throw new IllegalArgumentException("expected a port from 0 to 65535, got '" + listen + "'");
        return port;
    }

    private static String label(boolean hard) {
        return hard ? "hard" : "soft";
    }
}
