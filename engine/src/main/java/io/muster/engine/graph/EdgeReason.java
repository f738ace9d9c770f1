package io.muster.engine.graph;

import java.util.Locale;

/** Why one resource comes after another. */
public enum EdgeReason {
    REQUIRE, BEFORE, NOTIFY, SUBSCRIBE, AUTOEDGE,
    /** The later resource reads a value the earlier one produces ({@code lookup}). */
    LOOKUP,
    /** The earlier resource is a member of the later aggregate ({@link Vertex.Role#AGGREGATE}). */
    CHILD,
    /**
     * The later resource was written after the earlier one in a format whose order is its schedule (a CCM
     * manifest): it waits for the earlier one to settle, and runs even when that one failed.
     */
    ORDER,
    /**
     * The later resource subscribes to the earlier one in a format whose order is its schedule (a CCM manifest's
     * {@code subscribe}): a change of the earlier one refreshes it, and it runs even when that one failed.
     */
    REFRESH;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a failure of the earlier resource skips the later one. */
    public boolean blocksOnFailure() {
        return this != ORDER && this != REFRESH;
    }

    /** Whether a change of the earlier resource refreshes the later one. */
    public boolean refreshes() {
        return this == NOTIFY || this == SUBSCRIBE || this == REFRESH;
    }
}
