package io.muster.engine.graph;

import java.util.Locale;

/** Why one resource comes after another. */
public enum EdgeReason {
    REQUIRE, BEFORE, NOTIFY, SUBSCRIBE, AUTOEDGE,
    /** The later resource reads a value the earlier one produces ({@code lookup}). */
    LOOKUP,
    /** The earlier resource is a member of the later aggregate ({@link Vertex.Role#AGGREGATE}). */
    CHILD;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a change of the earlier resource refreshes the later one. */
    public boolean refreshes() {
        return this == NOTIFY || this == SUBSCRIBE;
    }
}
