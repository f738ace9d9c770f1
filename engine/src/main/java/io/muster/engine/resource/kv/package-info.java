/**
 * The {@code kv} kind (mgmt's): a key of the {@link io.muster.engine.world.World}'s key-value store set to a value,
 * or deleted.
 *
 * <p>May import {@code resource} (the SPI) and {@code world}.
 */
package io.muster.engine.resource.kv;
