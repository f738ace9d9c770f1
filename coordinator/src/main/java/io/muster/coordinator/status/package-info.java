/**
 * The fleet as {@code muster status} and {@code muster deploy --wait} see it: hosts read from their keys
 * ({@link io.muster.coordinator.status.HostTable}), the status document in text and JSON, a rollout's waves
 * ({@link io.muster.coordinator.status.RolloutView}), and the wait for a deploy to converge. Reads only; may import {@code etcd}, the agent's {@code etcd} package, the proto messages
 * and the engine's {@code util}.
 */
package io.muster.coordinator.status;
