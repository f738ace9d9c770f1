/**
 * Helpers that know nothing of muster's model: JSON in and out, maps, numbers, text diffs, suggestions for
 * misspelt names, and files written atomically ({@code util.fs} for paths opened safely). Imports only the
 * JDK and {@code util.fs}, so every other package may import it.
 */
package io.muster.engine.util;
