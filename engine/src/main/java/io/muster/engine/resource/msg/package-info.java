/**
 * The {@code msg} kind: a message logged and reported on every run, which never changes anything.
 *
 * <p>May import {@code resource} (the SPI) alone.
 */
package io.muster.engine.resource.msg;
