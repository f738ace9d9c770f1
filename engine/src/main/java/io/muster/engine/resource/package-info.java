/**
 * The resource SPI: what a kind of resource is ({@link io.muster.engine.resource.ResourceKind}, its
 * {@link io.muster.engine.resource.Schema} of {@link io.muster.engine.resource.Property properties}), what an
 * instance does ({@link io.muster.engine.resource.Resource} and its optional capabilities), and what the engine
 * hands it ({@link io.muster.engine.resource.Context}, {@link io.muster.engine.resource.Watcher}).
 *
 * <p>Values travel typed: the compiler coerces each property to its {@link io.muster.engine.resource.Type}
 * into {@link io.muster.engine.resource.Params}, and a kind reads them only through
 * {@link io.muster.engine.resource.TypedParams}, which checks every read against the schema. Text is
 * case-folded with {@link java.util.Locale#ROOT}, never the default locale.
 *
 * <p>May import the JDK, SLF4J, {@code util} and {@code manifest} (to describe a value in a message). Never the
 * engine that drives resources ({@code compile}, {@code graph}, {@code run}, {@code report}) or {@code cli};
 * nor its own kind packages, which depend on it. Each kind is a subpackage registered with
 * {@link java.util.ServiceLoader}.
 */
package io.muster.engine.resource;
