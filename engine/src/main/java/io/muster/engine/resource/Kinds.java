package io.muster.engine.resource;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A registry of resource kinds by name. {@link #installed()} holds those found with {@link ServiceLoader};
 * {@link #with} adds one more, for an embedding program or a test that needs a kind users never see.
 */
public final class Kinds {
    private static final Kinds INSTALLED = load();

    private final Map<String, ResourceKind> kinds;

    private Kinds(Map<String, ResourceKind> kinds) {
        this.kinds = Map.copyOf(kinds);
    }

    public static Kinds installed() {
        return INSTALLED;
    }

    private static Kinds load() {
        Kinds kinds = new Kinds(Map.of());
        for (ResourceKind kind : ServiceLoader.load(ResourceKind.class)) kinds = kinds.with(kind);
        return kinds;
    }

    /** These kinds and {@code kind}, whose name must be new. */
    public Kinds with(ResourceKind kind) {
        if (kinds.containsKey(kind.name())) throw new IllegalArgumentException("two resource kinds named " + kind.name());
        Map<String, ResourceKind> more = new TreeMap<>(kinds);
        more.put(kind.name(), kind);
        return new Kinds(more);
    }

    /** The kind named {@code name}, or null. */
    public ResourceKind get(String name) {
        return kinds.get(name);
    }

    public Set<String> names() {
        return new TreeSet<>(kinds.keySet());
    }
}
