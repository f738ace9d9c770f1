/**
 * The {@code apply} kind: an {@link io.muster.engine.resource.AggregateKind aggregate} whose members are the
 * resources of a child manifest. It only names where the child is; the compiler and the run treat it by its
 * role.
 *
 * <p>May import {@code resource} (the SPI); like every kind, never {@code compile}, {@code run},
 * {@code report} or {@code cli}.
 */
package io.muster.engine.resource.apply;
