package io.muster.engine.resource;

/**
 * One managed thing: a file, a command, a service. The required core is small; optional capabilities
 * are separate interfaces ({@link Refreshable}, {@link Edgeable}).
 *
 * <p>Implementations are immutable values built from validated parameters; the engine creates a fresh
 * one whenever parameters change.
 */
public interface Resource {

    /** Checks the parameters together (pure, no I/O). Single parameters were type-checked already. */
    default void validate() throws InvalidResourceException {}

    /**
     * Converges in one call. With {@code apply == false} it changes nothing and reports what it would
     * change. Throws when the resource cannot be converged; the message is shown to the user.
     */
    Result checkApply(Context context, boolean apply) throws Exception;

    /**
     * Calls {@link Watcher#changed()} whenever the resource's state may have drifted from what {@code
     * checkApply} made it, until the engine cancels the watch: either blocking until interrupted, or, when
     * shared watches do it all, handing their handles to {@link Watcher#hold} and returning. A kind with
     * nothing to watch returns at once holding nothing: it is checked again when a dependency changes, or
     * every {@code meta.poll} seconds.
     */
    default void watch(Watcher watcher) throws Exception {}

    /** Whether a running instance can stand in for {@code other} after a graph swap. */
    default boolean sameAs(Resource other) {
        return equals(other);
    }
}
