/**
 * The agent daemon ({@code muster agent}): {@link io.muster.agent.Agent} registers the host, follows the
 * graph the coordinator publishes for it, runs it with the live engine (graph swaps included) over the etcd
 * World, keeps the last graph on local disk ({@code LocalGraph}) and writes the host's status on its
 * transitions, once per deploy that converges soon ({@code StatusReporter}, {@code HostState}). It knows
 * compiled graphs only through {@link io.muster.agent.GraphDecoder} ({@link io.muster.agent.CodecGraphDecoder}: the engine's graph codec; their
 * bundles are laid out by {@link io.muster.agent.bundle.LocalBundles}). The etcd pieces (registration, watches, the World) are
 * in {@code io.muster.agent.etcd}.
 *
 * <h2>Threads</h2>
 * <ul>
 *   <li>Registration: one thread keeps the lease alive (or registers again); listeners hear each new lease.</li>
 *   <li>Each {@code StateWatch} has one thread that lists and re-lists; jetcd's threads deliver watch events,
 *       under the watch's lock, to listeners that only take note (the agent keeps the newest pointer, the
 *       World hands states to a {@code Delivery}).</li>
 *   <li>The agent's applier thread alone fetches, decodes and swaps graphs in; the status thread alone writes
 *       the status. Both wait on a monitor and are woken by a note from any thread.</li>
 * </ul>
 */
package io.muster.agent;
