/**
 * The {@code hostname} kind (mgmt's): the host's static, transient and pretty names.
 *
 * <p>May import {@code resource} (the SPI) alone.
 */
package io.muster.engine.resource.hostname;
