/**
 * The {@code apply} kind: an {@link io.muster.engine.resource.AggregateKind aggregate} whose members are the
 * resources of a child manifest. It only names where the child is; the compiler and the run treat it by its
 * role. May import {@code resource} only.
 */
package io.muster.engine.resource.apply;
