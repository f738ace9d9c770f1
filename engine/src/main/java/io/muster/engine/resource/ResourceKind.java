package io.muster.engine.resource;

/**
 * A kind of resource ({@code file}, {@code exec}): its schema and how to build an instance. Kinds are
 * found with {@link java.util.ServiceLoader}, so a new kind is a new package plus one line in
 * {@code META-INF/services/io.muster.engine.resource.ResourceKind}.
 */
public interface ResourceKind {

    String name();

    Schema schema();

    /** Builds an instance from type-checked parameters; {@link Resource#validate()} is called next. */
    Resource create(Params params) throws InvalidResourceException;
}
