/**
 * The agentless run, {@code muster remote}: {@link io.muster.remote.RemoteRun} deploys the manifest to a short-lived
 * fleet of its own ({@link io.muster.remote.PrivateFleet}: a private etcd or a namespace of a shared one, and an
 * in-process coordinator), and for each host ({@code HostJob}) connects over SSH, installs muster from the host's
 * cache ({@code io.muster.remote.install}), opens a tunnel from the host's loopback to the fleet's etcd and runs the
 * agent once there ({@link io.muster.remote.AgentCommandLine}). A host's result ({@link io.muster.remote.RemoteResult},
 * shown by {@link io.muster.remote.ResultTable} and {@link io.muster.remote.ResultJson}) comes from what its agent
 * reported to the fleet. {@link io.muster.remote.RuntimeLocator} finds the jar and Java runtime to upload.
 *
 * <p>May import the coordinator (its deploy, status and dev etcd), the agent's etcd package, the engine's utilities and
 * {@code ssh} and {@code install}; never the cli.
 */
package io.muster.remote;
