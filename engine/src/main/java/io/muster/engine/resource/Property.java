package io.muster.engine.resource;

import io.muster.engine.util.Suggest;
import java.util.List;
import java.util.function.Function;

/**
 * One parameter of a resource kind: its type, whether it is required, its allowed values, an optional check
 * for forms a type cannot express (a file mode), and whether it names a file of the bundle.
 *
 * @param bundleFile a path, relative to the manifest's directory, of a file the resource reads when it runs
 *     (a file's {@code source}): a graph that travels takes that file with it
 */
public record Property(String name, Type type, boolean required, List<String> allowed, Function<Object, String> check,
                       boolean bundleFile) {

    public static Property optional(String name, Type type) {
        return new Property(name, type, false, List.of(), v -> null, false);
    }

    public static Property required(String name, Type type) {
        return new Property(name, type, true, List.of(), v -> null, false);
    }

    /** A string property limited to {@code values}. */
    public static Property oneOf(String name, String... values) {
        return new Property(name, Type.STRING, false, List.of(values), v -> null, false);
    }

    /** Adds a check that returns an error message for a bad value, or null. Runs on the raw value. */
    public Property checkedBy(Function<Object, String> extra) {
        return new Property(name, type, required, allowed, extra, bundleFile);
    }

    /** This property, naming a file the resource reads when it runs, relative to the manifest's directory. */
    public Property readsBundleFile() {
        return new Property(name, type, required, allowed, check, true);
    }

    /**
     * Converts {@code raw} to this property's Java value.
     *
     * @throws IllegalArgumentException with a message fit for the user
     */
    public Object coerce(Object raw) {
        String problem = check.apply(raw);
        if (problem != null) throw new IllegalArgumentException(name + ": " + problem);
        Object value = raw == null ? null : type.convert(raw);
        if (value == null) {
            throw new IllegalArgumentException(name + ": expected " + type.expected() + ", got " + describe(raw));
        }
        if (!allowed.isEmpty() && !allowed.contains(value)) {
            throw new IllegalArgumentException(name + ": expected one of " + String.join(", ", allowed) + ", got '"
                    + value + "'" + Suggest.hint(value.toString(), allowed));
        }
        return value;
    }

    static String describe(Object value) {
        return io.muster.engine.manifest.YNode.describeValue(value);
    }
}
