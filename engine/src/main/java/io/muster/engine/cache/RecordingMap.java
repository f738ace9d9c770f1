package io.muster.engine.cache;

import io.muster.engine.util.Json;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A read-only view of the facts or the environment that notes what a compilation read through it: the value of
 * each name read (or that it had none), whether a name is there, or everything, once the whole map was enumerated
 * (a template iterating the facts). Values are noted as JSON text, the form a cache entry keeps them in.
 */
final class RecordingMap<V> extends AbstractMap<String, V> {
    private final Map<String, V> values;
    /** Name to the JSON of its value, null when the name is not there. Guarded by this, as {@code present} and {@code all}. */
    private final Map<String, String> read = new TreeMap<>();
    private final Map<String, Boolean> present = new TreeMap<>();
    private boolean all;

    RecordingMap(Map<String, V> values) {
        this.values = values;
    }

    @Override
    public synchronized V get(Object key) {
        V value = values.get(key);
        if (key instanceof String name) read.put(name, value == null && !values.containsKey(name) ? null : canonical(value));
        return value;
    }

    @Override
    public synchronized boolean containsKey(Object key) {
        boolean there = values.containsKey(key);
        if (key instanceof String name) present.put(name, there);
        return there;
    }

    @Override
    public synchronized Set<Entry<String, V>> entrySet() {
        all = true;
        return values.entrySet();
    }

    /** What was read so far. */
    synchronized Reads reads() {
        return new Reads(new TreeMap<>(read), new TreeMap<>(present), all ? everything(values) : null);
    }

    /** The whole map as JSON, keys sorted: what a compilation that enumerated it depends on. */
    static String everything(Map<String, ?> values) {
        return canonical(values);
    }

    /**
     * {@code value} as JSON, the keys of its maps sorted at every depth: a fact made with {@code Map.of} (the memory's
     * sizes) iterates in another order in each JVM, which must not read as a change.
     */
    static String canonical(Object value) {
        return Json.pretty(sorted(value));
    }

    private static Object sorted(Object value) {
        return switch (value) {
            case Map<?, ?> map -> {
                Map<String, Object> sorted = new TreeMap<>();
                map.forEach((k, v) -> sorted.put(String.valueOf(k), sorted(v)));
                yield sorted;
            }
            case java.util.List<?> list -> list.stream().map(RecordingMap::sorted).toList();
            case null, default -> value;
        };
    }

    /**
     * What a compilation read of one map.
     *
     * @param values name to the JSON of the value read, null for a name that was not there
     * @param present name to whether it was there, for names only tested
     * @param all the whole map as JSON when it was enumerated, else null
     */
    record Reads(Map<String, String> values, Map<String, Boolean> present, String all) {
        /** The first difference {@code now} shows (as {@code facts.os}), or null when it would read the same. */
        String changed(String what, Map<String, ?> now) {
            if (all != null && !all.equals(everything(now))) return what + " (all of them were read)";
            for (Map.Entry<String, String> e : values.entrySet()) {
                Object value = now.get(e.getKey());
                String text = value == null && !now.containsKey(e.getKey()) ? null : canonical(value);
                if (!java.util.Objects.equals(text, e.getValue())) return what + "." + e.getKey();
            }
            for (Map.Entry<String, Boolean> e : present.entrySet()) {
                if (now.containsKey(e.getKey()) != e.getValue()) return what + "." + e.getKey();
            }
            return null;
        }
    }
}
