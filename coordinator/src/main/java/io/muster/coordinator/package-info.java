/**
 * The coordinator daemon ({@code muster coordinator}): {@link io.muster.coordinator.Coordinator} campaigns in
 * etcd's election ({@code Leadership}, a lease per coordinator) and, while it leads, {@code Leader} follows the
 * current deploy and the hosts (list, then watch from the revision after) and has {@code HostCompiler} compile
 * each host's graph with its published facts, and {@code PointerWriter} store it by content and point the host
 * at it, many hosts per transaction, fenced on the leader's election key ({@code Term}).
 *
 * <p>Who may do what in etcd, and the fleet's certificates, are in {@code auth}. A deploy that goes out in waves is
 * followed by {@code rollout}'s {@code RolloutDriver}, which the leader asks which deploy each host is compiled against.
 *
 * <p>May import {@code deploy}, {@code rollout}, {@code etcd}, the agent's {@code etcd} and {@code bundle} packages, the proto
 * messages and the engine's compiler; never the cli. How a graph is encoded comes from outside
 * ({@link io.muster.coordinator.GraphEncoder}).
 */
package io.muster.coordinator;
