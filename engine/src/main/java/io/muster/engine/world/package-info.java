/**
 * The engine's seam to the fleet: {@link io.muster.engine.world.World} (this host's name, key-value
 * strings private to the host or shared, exported resources and their collections) and
 * {@link io.muster.engine.world.MemoryWorld}, the World of single-host runs and tests. The agent implements
 * World over etcd; the World interface states what every implementation promises about ordering and
 * delivery of watch calls.
 *
 * <p>Imports only the JDK and SLF4J: never etcd, and nothing else of the engine, so any module can
 * implement it.
 */
package io.muster.engine.world;
