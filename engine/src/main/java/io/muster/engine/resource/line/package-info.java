/**
 * The {@code line} kind (Puppet's {@code file_line}): one line of a text file present or absent, replacing the
 * lines a regular expression matches or placed after another, the file rewritten atomically.
 *
 * <p>May import {@code resource} (the SPI), {@code util} and, of the other kinds, {@code resource.file} alone,
 * for the parent directory every kind that writes files opens the same way; never {@code compile}, {@code run},
 * {@code report} or {@code cli}.
 */
package io.muster.engine.resource.line;
