/**
 * The {@code exec} kind: a command run when its guards say so, as a user, with a timeout, in a process group
 * of its own; its output and exit code are values. {@link io.muster.engine.resource.exec.Seconds} is also how
 * health checks read durations.
 *
 * <p>May import {@code resource} (the SPI), {@code util}, {@code manifest} (to describe a value in a message)
 * and {@code template} (for a value too large to keep); never another kind, {@code compile}, {@code run},
 * {@code report} or {@code cli}.
 */
package io.muster.engine.resource.exec;
