package io.muster.engine.resource;

import io.muster.engine.util.Plain;
import java.nio.file.Path;
import java.util.Map;

/**
 * A resource's parameters after type checking, keyed by property name; absent means not set.
 * {@code directory} is the manifest's directory, against which relative paths resolve. Kinds read them
 * through {@link TypedParams}, checked against their schema; the engine reads a value by name only where
 * the name comes from the manifest ({@code lookup}). Values are {@link Plain}, in the order they were written,
 * so a graph written out and read back holds the same parameters.
 */
public record Params(String name, Map<String, Object> values, Path directory) {

    public Params {
        values = Plain.map(values);
    }

    /** The value of {@code property} as the compiler type-checked it, or null when it is not set. */
    public Object raw(String property) {
        return values.get(property);
    }
}
