/**
 * The resource SPI: what a kind of resource is ({@link io.muster.engine.resource.ResourceKind}, its
 * {@link io.muster.engine.resource.Schema} of {@link io.muster.engine.resource.Property properties}, an
 * optional per-run session, the {@link io.muster.engine.resource.AggregateKind aggregate} role), what an
 * instance does ({@link io.muster.engine.resource.Resource} and its optional capabilities
 * {@link io.muster.engine.resource.Refreshable}, {@link io.muster.engine.resource.Edgeable},
 * {@link io.muster.engine.resource.Groupable}, {@link io.muster.engine.resource.Reversible}), and what the
 * engine hands it ({@link io.muster.engine.resource.Context}: host, state dir, manifest directory, the
 * {@link io.muster.engine.world.World}, its kind's session; {@link io.muster.engine.resource.Watcher}).
 *
 * <p>Values travel typed: the compiler coerces each property to its {@link io.muster.engine.resource.Type}
 * into {@link io.muster.engine.resource.Params}, and a kind reads them only through
 * {@link io.muster.engine.resource.TypedParams}, which checks every read against the schema. Text is
 * case-folded with {@link java.util.Locale#ROOT}, never the default locale.
 *
 * <p>May import the JDK, SLF4J, {@code world}, {@code util} and {@code manifest} (to describe a value in a
 * message). Never the engine that drives resources ({@code compile}, {@code graph}, {@code run},
 * {@code report}) or {@code cli}; nor its own kind packages, which depend on it. Each kind is a subpackage
 * registered with {@link java.util.ServiceLoader}.
 */
package io.muster.engine.resource;
