/**
 * The {@code exec} kind: a command with guards ({@code creates}, {@code onlyif}, {@code unless},
 * {@code refreshonly}), values ({@code stdout}, {@code stderr}, {@code exit_code}) and watches
 * ({@code watchcmd}, {@code watchfiles}). Commands run through {@link io.muster.engine.process}; this
 * package only turns the manifest's words into argv ({@code Command}, {@code CommandLine}).
 *
 * <p>May import {@code io.muster.engine.resource}, {@code io.muster.engine.process} and
 * {@code io.muster.engine.template} (for incomplete values); nothing of compiling or running a graph.
 */
package io.muster.engine.resource.exec;
