/**
 * Who may do what in the fleet's etcd: users and roles per host and for the coordinator ({@link
 * io.muster.coordinator.auth.FleetAuth}), each logging in by its client certificate, and a {@code muster remote}
 * run's hosts confined to its namespace; the coordinator's CA and certificates ({@link
 * io.muster.coordinator.auth.FleetPki}), the hosts' certificates it issued and revoked ({@code IssuedCertificates})
 * and the revocation list etcd reads; the leader's scheduled rotation of the hosts' certificates ({@link
 * io.muster.coordinator.auth.CertificateRotator}). May import the agent's {@code etcd} and {@code pki} packages,
 * the rollout's {@code LeaderFence} and the engine's resource kinds.
 */
package io.muster.coordinator.auth;
