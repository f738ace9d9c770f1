/**
 * The {@code noop} kind: a named point in the graph to hang relations on; it does nothing.
 *
 * <p>May import {@code resource} (the SPI) alone.
 */
package io.muster.engine.resource.noop;
