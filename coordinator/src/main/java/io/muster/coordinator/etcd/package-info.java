/**
 * Reading etcd as the coordinator and the fleet commands need: paged ranges at one revision
 * ({@link io.muster.coordinator.etcd.Pages}), stored messages checked as they are parsed
 * ({@link io.muster.coordinator.etcd.Stored}) and which watch errors end a watch
 * ({@link io.muster.coordinator.etcd.WatchErrors}); waits between attempts are the agent's
 * {@link io.muster.agent.etcd.Backoff}.
 */
package io.muster.coordinator.etcd;
