package io.muster.engine.resource;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The registry of resource kinds, loaded once. */
public final class Kinds {
    private static final Map<String, ResourceKind> KINDS = load();

    private Kinds() {}

    private static Map<String, ResourceKind> load() {
        Map<String, ResourceKind> kinds = new TreeMap<>();
        for (ResourceKind kind : ServiceLoader.load(ResourceKind.class)) {
            ResourceKind previous = kinds.put(kind.name(), kind);
            if (previous != null) throw new IllegalStateException("two resource kinds named " + kind.name());
        }
        return Map.copyOf(kinds);
    }

    public static ResourceKind get(String name) {
        return KINDS.get(name);
    }

    public static java.util.Set<String> names() {
        return new java.util.TreeSet<>(KINDS.keySet());
    }
}
