/**
 * Reading etcd as the coordinator and the fleet commands need: paged ranges at one revision
 * ({@link io.muster.coordinator.etcd.Pages}) and stored messages checked as they are parsed
 * ({@link io.muster.coordinator.etcd.Stored}).
 */
package io.muster.coordinator.etcd;
