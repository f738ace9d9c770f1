/**
 * The {@code exec} kind: a command with guards ({@code creates}, {@code onlyif}, {@code unless},
 * {@code refreshonly}), values ({@code stdout}, {@code stderr}, {@code exit_code}) and watches
 * ({@code watchcmd}, {@code watchfiles}). Commands run through {@link io.muster.engine.process}; this
 * package only turns the manifest's words into argv ({@code Command}, {@code CommandLine}).
 * {@link io.muster.engine.resource.exec.Seconds} is also how health checks read durations.
 *
 * <p>May import {@code resource} (the SPI), {@code process}, {@code util}, {@code manifest} (to describe a
 * value in a message) and {@code template} (for a value too large to keep); never another kind,
 * {@code compile}, {@code run}, {@code report} or {@code cli}.
 */
package io.muster.engine.resource.exec;
