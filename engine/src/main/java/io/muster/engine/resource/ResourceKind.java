package io.muster.engine.resource;

/**
 * A kind of resource ({@code file}, {@code exec}): its schema and how to build an instance. Kinds are
 * found with {@link java.util.ServiceLoader}, so a new kind is a new package plus one line in
 * {@code META-INF/services/io.muster.engine.resource.ResourceKind}.
 */
public interface ResourceKind {

    String name();

    Schema schema();

    /**
     * Whether its resources run commands: such a kind is collected from other hosts only when a {@code collect}
     * block's {@code allow.kinds} names it.
     */
    default boolean runsCommands() {
        return false;
    }

    /**
     * Builds an instance from its parameters, read through {@link #schema()}; {@link Resource#validate()} is
     * called next. A problem with the values is an {@link InvalidResourceException}; a read the schema does not
     * allow is a bug, an {@link IllegalArgumentException}.
     */
    Resource create(TypedParams params) throws InvalidResourceException;

    /** What the engine calls: {@link #create(TypedParams)} with {@code params} read through this kind's schema. */
    default Resource create(Params params) throws InvalidResourceException {
        return create(new TypedParams(name(), schema(), params));
    }

    /**
     * Opens what this kind keeps for one run (the package database read once, one D-Bus connection); its
     * resources get it with {@link Context#session}. The engine opens it when the first of them asks and
     * closes it when the run ends, or when a graph swap leaves no resource of this kind; a close that throws
     * is logged, not passed on. Resources running in parallel share it, so it must be thread-safe.
     *
     * @return the session, or null (the default) for a kind that keeps nothing
     * @throws Exception when it cannot open: the resource that asked fails with the message
     */
    default AutoCloseable openSession(SessionContext context) throws Exception {
        return null;
    }
}
