/**
 * The {@code apply} kind: its schema, which the compiler uses to read a child manifest into the same graph.
 * The resource itself does nothing; its outcome is its children's.
 *
 * <p>May import {@code resource} (the SPI) and {@code manifest} (to describe a value in a message); like every
 * kind, never {@code compile}, {@code run}, {@code report} or {@code cli}.
 */
package io.muster.engine.resource.apply;
