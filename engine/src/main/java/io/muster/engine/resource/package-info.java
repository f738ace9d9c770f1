/**
 * The resource model that kinds implement: {@link io.muster.engine.resource.ResourceKind} (schema, how to
 * build a {@link io.muster.engine.resource.Resource}, an optional per-run session), the resource and its
 * capabilities ({@link io.muster.engine.resource.Refreshable}, {@link io.muster.engine.resource.Edgeable},
 * {@link io.muster.engine.resource.Groupable}, {@link io.muster.engine.resource.Reversible}), and what the
 * engine hands a resource while it runs ({@link io.muster.engine.resource.Context}: host, state dir,
 * manifest directory, the {@link io.muster.engine.world.World}, its kind's session). Each kind lives in a
 * subpackage of its own.
 *
 * <p>May import {@code io.muster.engine.world}, {@code io.muster.engine.util} and
 * {@code io.muster.engine.manifest} (to describe a value in a message); never the compiler or the run,
 * which build on this package.
 */
package io.muster.engine.resource;
