/**
 * Who may do what in the fleet's etcd: users and roles per host and for the coordinator ({@link
 * io.muster.coordinator.auth.FleetAuth}), each logging in by its client certificate.
 */
package io.muster.coordinator.auth;
