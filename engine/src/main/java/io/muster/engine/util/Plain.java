package io.muster.engine.util;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Values in the one form a compiled graph holds (parameters, run-time properties, a manifest's data): a string,
 * a whole number ({@code Long}, or {@code BigInteger} past its range), a {@code Double}, a boolean, null, a list,
 * or a map with string keys in a fixed order. Such a value can be
 * written out and read back equal, in any JVM: {@code returns: [0]} stays the whole number 0.
 *
 * <p>Other forms a template or a parser may give are turned into these: smaller integer types into
 * {@code Long}, a {@code Float} or a {@code BigDecimal} (a facts file's {@code 1.5}) into a {@code Double}, arrays and other collections into lists, map keys
 * into strings, anything else (a character, an enum, a path) into its string form.
 */
public final class Plain {
    private Plain() {}

    /** {@code value} in plain form, deeply, read-only. */
    public static Object of(Object value) {
        return switch (value) {
            case null -> null;
            case String s -> s;
            case Boolean b -> b;
            case Long l -> l;
            case Integer i -> i.longValue();
            case Short s -> s.longValue();
            case Byte b -> b.longValue();
            case BigInteger big -> big.bitLength() < 64 ? (Object) big.longValue() : big;
            case Double d -> d;
            case Float f -> f.doubleValue();
            case BigDecimal d -> d.doubleValue();
            case Map<?, ?> map -> map(map);
            case Collection<?> items -> list(items);
            default -> value.getClass().isArray() ? list(array(value)) : value.toString();
        };
    }

    /** A map in plain form: its keys as strings, in the order it had. */
    public static Map<String, Object> map(Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((key, value) -> out.put(String.valueOf(key), of(value)));
        return Collections.unmodifiableMap(out);
    }

    /** A map in plain form with its keys, and those of the maps inside it, in name order: for data whose order means nothing (facts). */
    public static Map<String, Object> sorted(Map<?, ?> map) {
        Map<String, Object> out = new TreeMap<>();
        map.forEach((key, value) -> out.put(String.valueOf(key), value instanceof Map<?, ?> inner ? sorted(inner) : value));
        return map(out);
    }

    private static List<Object> list(Collection<?> items) {
        List<Object> out = new ArrayList<>(items.size());
        for (Object item : items) out.add(of(item));
        return Collections.unmodifiableList(out);
    }

    private static List<Object> array(Object array) {
        List<Object> out = new ArrayList<>(Array.getLength(array));
        for (int i = 0; i < Array.getLength(array); i++) out.add(Array.get(array, i));
        return out;
    }
}
