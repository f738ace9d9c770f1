/**
 * The {@code scaffold} kind: a directory of files rendered when the manifest is compiled (CCM's scaffold type),
 * written when they differ, with optional purge of other files and post-processing commands.
 *
 * <p>May import {@code resource} (the SPI), {@code process} and {@code util}; never {@code compile} or {@code run}.
 */
package io.muster.engine.resource.scaffold;
