/**
 * The agentless run, {@code muster remote}: {@link io.muster.remote.RemoteRun} deploys the manifest to a short-lived
 * fleet of its own ({@link io.muster.remote.PrivateFleet}: a private etcd or a namespace of a shared one, and an
 * in-process coordinator), and for each host ({@code HostJob}) connects over SSH, installs muster from the host's
 * cache ({@code io.muster.remote.install}), uploads the host's etcd certificate for the run, opens a tunnel from the
 * host's loopback to the fleet's etcd and runs the agent once there ({@link io.muster.remote.AgentCommandLine}).
 *
 * <p>What the tunnel exposes is protected: the fleet's etcd serves TLS and takes clients by certificate only (the
 * private one with a CA of the run's own, gone with it; a shared {@code https://} one with the fleet's CA), and each
 * host's agent logs in with a certificate made for it ({@code HostCertificates}) whose etcd user may write that host's
 * keys and read its own graph only. A local user of the host who has not the host's login cannot read that certificate
 * (0700 directory, removed when the agent ends), and without it gets nothing through the tunnel's port. An {@code
 * http://} {@code --etcd} is the exception the run warns about. A host's result ({@link io.muster.remote.RemoteResult},
 * shown by {@link io.muster.remote.ResultTable} and {@link io.muster.remote.ResultJson}) comes from what its agent
 * reported to the fleet. {@link io.muster.remote.RuntimeLocator} finds the jar and Java runtime to upload.
 *
 * <p>May import the coordinator (its deploy, status, auth and dev etcd), the agent's etcd package, the engine's
 * utilities and resource kinds, and {@code ssh} and {@code install}; never the cli.
 */
package io.muster.remote;
