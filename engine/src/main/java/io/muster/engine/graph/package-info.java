/**
 * The compiled form of a manifest that the run executes: {@link io.muster.engine.graph.Graph} (vertices, edges,
 * the manifest files it came from), {@link io.muster.engine.graph.Vertex} (a resource with its parameters,
 * metaparams, conditions and {@link io.muster.engine.graph.Vertex.Role role}) and
 * {@link io.muster.engine.graph.Edge}. Nothing here changes once built, so a run and a reload may share a graph
 * across threads without locks.
 *
 * <p>A vertex's role tells the run what to do with it: converge its resource, or, for an aggregate, report its
 * members' outcome (they reach it through {@link io.muster.engine.graph.EdgeReason#CHILD} edges). The role
 * comes from what its kind declares, never from the kind's name.
 *
 * <p>May import {@code resource} (kinds, parameters), {@code manifest} (marks), {@code template} (scopes),
 * {@code health} and {@code util}. Never {@code compile} or {@code run}, which build and execute graphs.
 */
package io.muster.engine.graph;
