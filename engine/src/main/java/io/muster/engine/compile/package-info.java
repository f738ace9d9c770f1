/**
 * The compiler: turns a manifest, and the child manifests its aggregates include, into an immutable
 * {@link io.muster.engine.graph.Graph} before anything runs, reporting every problem at once with its
 * file:line:col.
 *
 * <p>{@link io.muster.engine.compile.ManifestCompiler} is the entry point. The stages, each a class of its own:
 * {@code Composition} reads the manifests (scoping each aggregate's members: data, directory, noop and
 * health-check modes, nesting limits; {@code NodesSection} picks the manifests a {@code nodes:} section gives the
 * host, {@code HostPattern} matching its name), {@code Declarations} the resource entries, {@code VertexBuilder} renders
 * and type-checks properties and resolves relations and lookups into edges, {@code MemberEdges},
 * {@code AutoEdges} and {@code AutoGroups} finish the graph. Composition asks the kind, never its name: a kind
 * that is an {@link io.muster.engine.resource.AggregateKind} has members.
 *
 * <p>May import {@code graph}, {@code manifest}, {@code template}, {@code health}, {@code util} and
 * {@code resource} (the kind interfaces; of the kinds' own packages only shared value types, such as
 * {@code exec.Seconds}). Never {@code run}: the run imports the few helpers it shares with the compiler
 * ({@code Rendering}, {@code Conditions}, {@code ResourceReference}), not the other way.
 */
package io.muster.engine.compile;
