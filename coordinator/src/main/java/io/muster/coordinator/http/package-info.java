/**
 * The coordinator's HTTP API, event stream, fleet metrics and web page ({@link io.muster.coordinator.http.ApiServer}):
 * {@code FleetFeed} keeps the fleet live from etcd (list, then watch) and turns each change into an event of the
 * {@code EventLog}; {@code ApiHandler} answers the JSON API ({@code ApiJson} writes its documents),
 * {@code WavesJson} a rollout's waves, {@code EventStream} the Server-Sent Events, {@code FleetMetrics} {@code /metrics}, {@code StaticAssets} the
 * page (plain files in {@code web/} beside these classes), each behind {@code HostCheck} (against DNS rebinding). Reads only, but for the rollback and the resume, which need the
 * bearer token ({@code ApiToken}).
 *
 * <p>May import the coordinator's {@code status}, {@code deploy}, {@code rollout} and {@code etcd} packages, the agent's {@code etcd}
 * package, the proto messages, the engine's {@code util}, {@code report} and {@code codec}, and Prometheus'
 * client; never the cli.
 */
package io.muster.coordinator.http;
