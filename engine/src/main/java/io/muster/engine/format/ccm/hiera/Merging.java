package io.muster.engine.format.ccm.hiera;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** CCM's two merges of data maps, which never change their inputs. */
public final class Merging {
    private Merging() {}

    /**
     * {@code over} merged into {@code base}: maps merge key by key, lists concatenate ({@code base}'s first), any other
     * value of {@code over} replaces {@code base}'s.
     */
    public static Map<String, Object> deep(Map<String, ?> base, Map<String, ?> over) {
        Map<String, Object> out = new LinkedHashMap<>(base);
        over.forEach((key, value) -> {
            Object existing = out.get(key);
            if (existing instanceof Map<?, ?> a && value instanceof Map<?, ?> b) {
                out.put(key, deep(keyed(a), keyed(b)));
            } else if (existing instanceof List<?> a && value instanceof List<?> b) {
                List<Object> both = new ArrayList<>(a);
                both.addAll(b);
                out.put(key, both);
            } else {
                out.put(key, value);
            }
        });
        return out;
    }

    /** {@code over}'s top-level keys replace {@code base}'s, whole. */
    public static Map<String, Object> shallow(Map<String, ?> base, Map<String, ?> over) {
        Map<String, Object> out = new LinkedHashMap<>(base);
        out.putAll(over);
        return out;
    }

    static Map<String, Object> keyed(Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }
}
