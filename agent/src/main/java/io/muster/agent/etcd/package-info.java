/**
 * The fleet's etcd: the connection ({@link io.muster.agent.etcd.Etcd}: fail fast, one clear line when
 * etcd is away), the key layout ({@link io.muster.agent.etcd.Keys}) and the content-addressed store of graphs
 * and bundle files ({@link io.muster.agent.etcd.ContentStore}). Used by the agent and the coordinator; may
 * import jetcd, the proto messages and the engine, never the coordinator.
 */
package io.muster.agent.etcd;
