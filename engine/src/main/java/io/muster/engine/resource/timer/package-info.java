/**
 * The {@code timer} kind (mgmt's): an event every {@code interval} seconds under {@code muster run}, which re-runs
 * the resources after it.
 *
 * <p>May import {@code resource} (the SPI) alone.
 */
package io.muster.engine.resource.timer;
