package io.muster.engine.util;

import java.util.LinkedHashMap;
import java.util.Map;

/** Merging of nested data maps. */
public final class Maps {
    private Maps() {}

    /** {@code over} merged into a copy of {@code base}: maps merge key by key, anything else is replaced. */
    public static Map<String, Object> deepMerge(Map<String, ?> base, Map<String, ?> over) {
        Map<String, Object> out = new LinkedHashMap<>(base);
        over.forEach((key, value) -> {
            Object existing = out.get(key);
            if (existing instanceof Map<?, ?> a && value instanceof Map<?, ?> b) {
                out.put(key, deepMerge(cast(a), cast(b)));
            } else {
                out.put(key, value);
            }
        });
        return out;
    }

    /** Sets {@code a.b.c=value} in a nested map, creating the maps on the way. */
    public static void putPath(Map<String, Object> target, String dottedKey, Object value) {
        String[] parts = dottedKey.split("\\.");
        Map<String, Object> at = target;
        for (int i = 0; i < parts.length - 1; i++) {
            Object next = at.get(parts[i]);
            if (!(next instanceof Map<?, ?>)) {
                next = new LinkedHashMap<String, Object>();
                at.put(parts[i], next);
            }
            at = cast((Map<?, ?>) next);
        }
        at.put(parts[parts.length - 1], value);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
