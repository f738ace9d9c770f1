package io.muster.coordinator.http;

import io.muster.coordinator.status.HostView;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The fleet's Prometheus metrics, served on the API's {@code /metrics}: hosts by state, the current deploy and
 * where its hosts are with it (counted from the {@link FleetFeed} at each scrape, so they are never stale nor
 * kept twice), whether this coordinator leads, and how long its compiles took (only the leader compiles).
 */
final class FleetMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();

    FleetMetrics(FleetFeed feed, BooleanSupplier leading, CompileHistogram compiles) {
        registry.register(compiles.histogram());
        GaugeWithCallback.builder().name("muster_fleet_hosts").help("Hosts by state: converged, drifting, failed, lost")
                .labelNames("state").callback(callback -> {
                    FleetFeed.Snapshot fleet = feed.snapshot();
                    Map<HostState, Integer> counts = new EnumMap<>(HostState.class);
                    for (HostState s : HostState.values()) counts.put(s, 0);
                    for (HostView h : fleet.hosts()) counts.merge(HostState.of(h, fleet.current()), 1, Integer::sum);
                    counts.forEach((s, n) -> callback.call(n, s.label()));
                }).register(registry);
        GaugeWithCallback.builder().name("muster_fleet_current_deploy").help("The current deploy's id (0 before the first)")
                .callback(callback -> callback.call(feed.snapshot().current())).register(registry);
        GaugeWithCallback.builder().name("muster_fleet_deploy_hosts")
                .help("Hosts by where they are with the current deploy: converged, failed, lost, applying, pending")
                .labelNames("progress").callback(callback -> {
                    FleetFeed.Snapshot fleet = feed.snapshot();
                    Map<DeployProgress, Integer> counts = new EnumMap<>(DeployProgress.class);
                    for (DeployProgress p : DeployProgress.values()) counts.put(p, 0);
                    if (fleet.current() != 0) {
                        for (HostView h : fleet.hosts()) counts.merge(DeployProgress.of(h, fleet.current()), 1, Integer::sum);
                    }
                    counts.forEach((p, n) -> callback.call(n, p.label()));
                }).register(registry);
        GaugeWithCallback.builder().name("muster_coordinator_leading").help("1 when this coordinator leads, else 0")
                .callback(callback -> callback.call(leading.getAsBoolean() ? 1 : 0)).register(registry);
    }

    PrometheusRegistry registry() {
        return registry;
    }
}
