package io.muster.engine.resource.document;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Document values: maps with string keys, lists, strings, numbers, booleans and null ({@link #plain}),
 * and their equality as JSON and YAML mean it ({@link #same}): numbers are equal when their values are
 * ({@code 1}, {@code 1.0} and {@code 1.00} are one number, whichever parser produced {@code Integer},
 * {@code Long} or {@code BigDecimal}); maps are equal whatever their key order; lists are equal item by
 * item in order. A number never equals a string or a boolean ({@code 80} is not {@code "80"}).
 */
final class Values {
    private Values() {}

    /**
     * {@code value} in document form: keys become strings (YAML allows {@code 8080: web}), arrays and other
     * collections lists, maps and lists fresh copies (a template may hand over a read-only view), and any
     * other object (a character, a date) its string form.
     */
    static Object plain(Object value) {
        return switch (value) {
            case Map<?, ?> map -> {
                Map<String, Object> out = new LinkedHashMap<>();
                map.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
                yield out;
            }
            case Collection<?> items -> items.stream().map(Values::plain).collect(ArrayList::new, List::add, List::addAll);
            case String s -> s;
            case Number n -> n;
            case Boolean b -> b;
            case null -> null;
            default -> value.getClass().isArray() ? plain(array(value)) : value.toString();
        };
    }

    /** Template expressions give arrays for list literals, {@code int[]} included. */
    private static List<Object> array(Object array) {
        List<Object> out = new ArrayList<>(Array.getLength(array));
        for (int i = 0; i < Array.getLength(array); i++) out.add(Array.get(array, i));
        return out;
    }

    static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) return number(x).equals(number(y));
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) return false;
            for (var e : x.entrySet()) {
                if (!y.containsKey(e.getKey()) || !same(e.getValue(), y.get(e.getKey()))) return false;
            }
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!same(x.get(i), y.get(i))) return false;
            return true;
        }
        return Objects.equals(a, b);
    }

    /** A scalar in a form whose {@code equals} and {@code hashCode} follow {@link #same}, for lookups by key. */
    static Object key(Object scalar) {
        return scalar instanceof Number n ? number(n) : scalar;
    }

    /** Numbers as one canonical type: {@code BigDecimal} without trailing zeros, or the double when not finite. */
    private static Object number(Number n) {
        BigDecimal exact = switch (n) {
            case BigDecimal d -> d;
            case BigInteger i -> new BigDecimal(i);
            case Double d when d.isNaN() || d.isInfinite() -> null;
            case Float f when f.isNaN() || f.isInfinite() -> null;
            // via the decimal string, so that the double 0.1 equals the 0.1 a JSON file spells
            case Double d -> BigDecimal.valueOf(d);
            case Float f -> new BigDecimal(f.toString());
            case Byte b -> BigDecimal.valueOf(b);
            case Short s -> BigDecimal.valueOf(s);
            case Integer i -> BigDecimal.valueOf(i);
            case Long l -> BigDecimal.valueOf(l);
            default -> new BigDecimal(n.toString());
        };
        return exact == null ? n.doubleValue() : exact.stripTrailingZeros();
    }
}
