package io.muster.engine.resource.document;

import io.muster.engine.util.Maps;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Apply semantics for structured documents, after kubectl apply as Metacontroller emulates it (seed 004):
 * the result is the observed document changed only where the manifest speaks.
 *
 * <ul>
 *   <li>A field desired sets takes desired's value; when both sides are maps they merge field by field,
 *       when both are associative lists they merge item by item.</li>
 *   <li>A field desired does not set is deleted if last-applied had it (muster set it, the manifest no
 *       longer does), and kept otherwise (someone else set it).</li>
 *   <li>A list is associative when all items of the observed, last-applied and desired lists are maps
 *       with the same conventional key ({@link #MERGE_KEYS}, the first that fits), whose values are
 *       scalars, distinct within each list. Items keep the observed order; new desired items follow in
 *       desired order; an item whose key last-applied had and desired no longer has is removed; an item
 *       only the observed list has stays. Any other list desired sets replaces the observed one.</li>
 *   <li>A value equal to the observed one ({@link Values#same}) keeps the observed spelling, so that
 *       {@code 1.0} in a file is not rewritten as {@code 1}.</li>
 * </ul>
 *
 * Pure: inputs are never modified; the result may share unchanged parts with them.
 */
public final class ThreeWayMerge {
    /** Conventional merge keys of associative lists, in order of preference. */
    private static final List<String> MERGE_KEYS = List.of("containerPort", "port", "mountPath", "name", "uid", "ip", "path");

    private ThreeWayMerge() {}

    /** {@code observed} (null: no document yet) with {@code desired} applied; {@code lastApplied} may be null. */
    public static Map<String, Object> merge(Map<String, ?> observed, Map<String, ?> lastApplied, Map<String, ?> desired) {
        return map(observed == null ? Map.of() : observed, lastApplied == null ? Map.of() : lastApplied, desired);
    }

    private static Object value(Object observed, Object lastApplied, Object desired) {
        if (observed instanceof Map<?, ?> o && desired instanceof Map<?, ?> d) {
            return map(Maps.cast(o), lastApplied instanceof Map<?, ?> l ? Maps.cast(l) : Map.of(), Maps.cast(d));
        }
        if (observed instanceof List<?> o && desired instanceof List<?> d) {
            List<?> l = lastApplied instanceof List<?> list ? list : List.of();
            String key = mergeKey(o, l, d);
            if (key != null) return associative(o, l, d, key);
        }
        return Values.same(observed, desired) ? observed : desired;
    }

    private static Map<String, Object> map(Map<String, ?> observed, Map<String, ?> lastApplied, Map<String, ?> desired) {
        Map<String, Object> out = new LinkedHashMap<>(observed);
        for (String key : lastApplied.keySet()) {
            if (!desired.containsKey(key)) out.remove(key);
        }
        desired.forEach((key, want) ->
                out.put(key, observed.containsKey(key) ? value(observed.get(key), lastApplied.get(key), want) : want));
        return out;
    }

    private static List<Object> associative(List<?> observed, List<?> lastApplied, List<?> desired, String key) {
        Map<Object, Object> last = byKey(lastApplied, key);
        Map<Object, Object> want = byKey(desired, key);
        Map<Object, Object> have = byKey(observed, key);
        List<Object> out = new ArrayList<>(observed.size() + desired.size());
        have.forEach((id, item) -> {
            if (want.containsKey(id)) out.add(value(item, last.get(id), want.get(id)));
            else if (!last.containsKey(id)) out.add(item); // someone else's item; one muster added and dropped goes
        });
        want.forEach((id, item) -> {
            if (!have.containsKey(id)) out.add(item);
        });
        return out;
    }

    /** Items by the value of their merge key (in {@link Values#key} form), in list order. */
    private static Map<Object, Object> byKey(List<?> list, String key) {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Object item : list) out.put(Values.key(((Map<?, ?>) item).get(key)), item);
        return out;
    }

    /** The merge key of an associative list, or null when the lists are plain lists. */
    private static String mergeKey(List<?>... lists) {
        boolean anyItem = false;
        for (List<?> list : lists) {
            for (Object item : list) {
                if (!(item instanceof Map<?, ?>)) return null;
                anyItem = true;
            }
        }
        if (!anyItem) return null;
        for (String key : MERGE_KEYS) {
            if (keysEveryItem(key, lists)) return key;
        }
        return null;
    }

    /**
     * Whether every item has {@code key} with a scalar value, unique within its list. A repeated value
     * would make two items one, so such a list is not treated as a map.
     */
    private static boolean keysEveryItem(String key, List<?>... lists) {
        for (List<?> list : lists) {
            Set<Object> seen = new HashSet<>();
            for (Object item : list) {
                Map<?, ?> map = (Map<?, ?>) item;
                if (!map.containsKey(key)) return false;
                Object id = map.get(key);
                if (id instanceof Map<?, ?> || id instanceof List<?> || !seen.add(Values.key(id))) return false;
            }
        }
        return true;
    }
}
