package io.muster.engine.resource;

/**
 * A resource that can undo itself when it disappears from the graph ({@code meta.reverse}): before it
 * first changes anything it records what was there, in its state dir; {@link #reverse} puts that back.
 */
public interface Reversible extends Resource {

    /** Records the state to restore, unless a record exists already (the first one is the original). */
    void remember(Context context) throws Exception;

    /** Restores what {@link #remember} recorded (or does nothing when nothing was), then forgets it. */
    Result reverse(Context context) throws Exception;
}
