/**
 * The {@code document} kind: the fields of a JSON or YAML file that a manifest sets, merged three ways with
 * what else the file holds, written atomically.
 *
 * <p>May import {@code resource} (the SPI), {@code util}, {@code manifest} (to describe a value in a message)
 * and, of the other kinds, {@code resource.file} alone, for the file mode and stat both kinds write with;
 * never {@code compile}, {@code run}, {@code report} or {@code cli}.
 */
package io.muster.engine.resource.document;
