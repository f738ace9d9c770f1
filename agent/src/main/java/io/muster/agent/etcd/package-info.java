/**
 * The fleet's etcd: the connection ({@link io.muster.agent.etcd.Etcd}: fail fast, one clear line when
 * etcd is away or refuses; TLS with a client certificate by {@link io.muster.agent.etcd.EtcdTls}), the key layout ({@link io.muster.agent.etcd.Keys}) and the content-addressed store of graphs
 * and bundle files ({@link io.muster.agent.etcd.ContentStore}); what keeps an agent connected: its
 * registration ({@link io.muster.agent.etcd.HostRegistration}: one lease, alive and facts), list-then-watch
 * ({@link io.muster.agent.etcd.StateWatch}) and jittered {@link io.muster.agent.etcd.Backoff}; and the World
 * over etcd ({@link io.muster.agent.etcd.EtcdWorld}). Used by the agent and the coordinator; may
 * import jetcd, the proto messages and the engine, never the coordinator.
 */
package io.muster.agent.etcd;
