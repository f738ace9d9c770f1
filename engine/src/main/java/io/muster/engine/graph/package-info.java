/**
 * The compiled form of a manifest that the run executes: {@link io.muster.engine.graph.Graph} (vertices, edges,
 * the manifest files it came from), {@link io.muster.engine.graph.Vertex} (a resource with its parameters,
 * metaparams, conditions and {@link io.muster.engine.graph.Vertex.Role role}) and
 * {@link io.muster.engine.graph.Edge}. Nothing here changes once built, so a run and a reload may share a graph
 * across threads without locks.
 *
 * <p>A graph is plain data, so it can travel to the host that runs it: parameters and run-time properties are
 * {@link io.muster.engine.util.Plain} values; each manifest's {@link io.muster.engine.template.ScopeTable} holds
 * its data and only the facts and environment variables its run-time templates read; conditions are source text;
 * manifest directories are named relative to the {@link io.muster.engine.graph.Bundle}, which lists the files the
 * graph reads when it runs. Kinds are found by name, lookups and template functions are bound where it runs.
 *
 * <p>A vertex's role tells the run what to do with it: converge its resource, or, for an aggregate, report its
 * members' outcome (they reach it through {@link io.muster.engine.graph.EdgeReason#CHILD} edges). The role
 * comes from what its kind declares, never from the kind's name.
 *
 * <p>May import {@code resource} (kinds, parameters), {@code manifest} (marks), {@code template} (scopes),
 * {@code health} and {@code util}. Never {@code compile} or {@code run}, which build and execute graphs.
 */
package io.muster.engine.graph;
