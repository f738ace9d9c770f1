/**
 * Deploy bundles on local disk: contents fetched by sha256 from etcd and laid out as directory trees for
 * graphs to read their files from. Used by the agent and the coordinator.
 */
package io.muster.agent.bundle;
