package io.muster.engine.resource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A resource's parameters after type checking, keyed by property name; absent means not set.
 * {@code directory} is the manifest's directory, against which relative paths resolve.
 */
public record Params(String name, Map<String, Object> values, Path directory) {

    public Params {
        values = Map.copyOf(values);
    }

    public boolean has(String property) {
        return values.containsKey(property);
    }

    public String string(String property) {
        return (String) values.get(property);
    }

    public String string(String property, String fallback) {
        return (String) values.getOrDefault(property, fallback);
    }

    public boolean bool(String property, boolean fallback) {
        return (Boolean) values.getOrDefault(property, fallback);
    }

    public double number(String property, double fallback) {
        return (Double) values.getOrDefault(property, fallback);
    }

    @SuppressWarnings("unchecked")
    public List<String> strings(String property) {
        return (List<String>) values.getOrDefault(property, List.of());
    }

    @SuppressWarnings("unchecked")
    public List<Long> integers(String property, List<Long> fallback) {
        return (List<Long>) values.getOrDefault(property, fallback);
    }

    public Object raw(String property) {
        return values.get(property);
    }

    /** A path that must be absolute, normalized (see {@link LexicalPath}); null when not set. */
    public Path absolutePath(String property) throws InvalidResourceException {
        if (!has(property)) return null;
        String problem = LexicalPath.problem(string(property));
        if (problem != null) throw new InvalidResourceException(property, problem);
        Path path = Path.of(string(property));
        if (!path.isAbsolute()) throw new InvalidResourceException(property, "expected an absolute path, got '" + path + "'");
        return path.normalize();
    }
}
