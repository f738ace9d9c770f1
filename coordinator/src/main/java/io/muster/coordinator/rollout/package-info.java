/**
 * Rollouts: a deploy that goes out in waves ({@code muster deploy --canary N --batch N|P%}). The deploy command
 * plans the waves ({@link io.muster.coordinator.rollout.WavePlanner}) and stores them at {@code rollouts/<id>} in
 * the transaction that makes the deploy current ({@link io.muster.coordinator.rollout.RolloutStart}), so a
 * coordinator never sees the deploy without its waves. The leading coordinator compiles the hosts of waves started
 * against the new deploy and every other host against the previous one ({@link io.muster.coordinator.rollout.RolloutDriver}),
 * and starts the next wave, or halts, as the hosts' statuses come in ({@link io.muster.coordinator.rollout.RolloutStep});
 * each of its writes is fenced on its election key, so a new leader goes on from what etcd holds. Resume and
 * rollback are the operator's writes, each a transaction on the rollout as read.
 *
 * <p>May import {@code deploy}, {@code status}, {@code etcd}, the agent's {@code etcd} package and the proto messages.
 */
package io.muster.coordinator.rollout;
