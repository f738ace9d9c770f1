/**
 * Reading etcd as the coordinator and the fleet commands need: paged ranges at one revision
 * ({@link io.muster.coordinator.etcd.Pages}), stored messages checked as they are parsed
 * ({@link io.muster.coordinator.etcd.Stored}), which watch errors end a watch
 * ({@link io.muster.coordinator.etcd.WatchErrors}) and jittered waits between attempts
 * ({@link io.muster.coordinator.etcd.Backoff}).
 */
package io.muster.coordinator.etcd;
