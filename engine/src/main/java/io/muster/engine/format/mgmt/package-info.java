/**
 * The mgmt YAML graph front end (a manifest with a top-level {@code graph:} key): mgmt's {@code resources:}
 * keyed by kind, {@code edges:} and {@code collect:}, translated into muster's native shape with mgmt's
 * semantics (octal modes, a path ending in {@code /} is a directory, exec's {@code shell} an interpreter, edges
 * with {@code notify}, {@code @@} exports), keeping the file's marks so every error names its line and column.
 * mgmt reads leniently: keys it does not know are ignored; keys muster cannot honour are errors naming them.
 *
 * <p>May import {@code format} (the seam), {@code manifest} and {@code resource} alone.
 */
package io.muster.engine.format.mgmt;
