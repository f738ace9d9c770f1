/**
 * Who may do what in the fleet's etcd: users and roles per host and for the coordinator ({@link
 * io.muster.coordinator.auth.FleetAuth}), each logging in by its client certificate; the coordinator's CA and
 * certificates ({@link io.muster.coordinator.auth.FleetPki}). May import the agent's {@code etcd} and {@code pki}
 * packages and the engine's resource kinds.
 */
package io.muster.coordinator.auth;
