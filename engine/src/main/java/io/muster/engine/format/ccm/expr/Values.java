package io.muster.engine.format.ccm.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;

/**
 * The value model of expressions, as expr-lang has it over YAML data: nil, bool, int ({@code Long}), float
 * ({@code Double}), string, array ({@code List}), map ({@code Map}), time ({@code ZonedDateTime}) and duration.
 * Numbers from data of other Java types are read as one of these two.
 */
final class Values {
    private Values() {}

    static Object normalize(Object value) {
        return switch (value) {
            case Integer i -> i.longValue();
            case Short s -> s.longValue();
            case Byte b -> b.longValue();
            case BigInteger big -> big.bitLength() < 64 ? (Object) big.longValue() : big.doubleValue();
            case Float f -> f.doubleValue();
            case BigDecimal d -> d.doubleValue();
            case null, default -> value;
        };
    }

    static boolean isNumber(Object value) {
        return value instanceof Long || value instanceof Double;
    }

    /** The name of a value's type, as {@code type()} gives it and errors say it. */
    static String type(Object value) {
        return switch (value) {
            case null -> "nil";
            case Boolean b -> "bool";
            case Long l -> "int";
            case Double d -> "float";
            case String s -> "string";
            case List<?> l -> "array";
            case Map<?, ?> m -> "map";
            case ZonedDateTime t -> "time";
            case Duration d -> "duration";
            default -> value.getClass().getSimpleName();
        };
    }

    static double toDouble(Object number) {
        return ((Number) number).doubleValue();
    }

    /** expr-lang's {@code ==}: numbers equal by value whatever their types, everything else deeply. */
    static boolean equal(Object a, Object b) {
        a = normalize(a);
        b = normalize(b);
        if (isNumber(a) && isNumber(b)) {
            if (a instanceof Long x && b instanceof Long y) return x.longValue() == y.longValue();
            return toDouble(a) == toDouble(b);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!equal(x.get(i), y.get(i))) return false;
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) return false;
            for (Map.Entry<?, ?> e : x.entrySet()) {
                if (!y.containsKey(e.getKey()) || !equal(e.getValue(), y.get(e.getKey()))) return false;
            }
            return true;
        }
        if (a instanceof ZonedDateTime x && b instanceof ZonedDateTime y) return x.toInstant().equals(y.toInstant());
        return a == null ? b == null : a.equals(b);
    }

    /** The order of two numbers, strings, times or durations; null when they cannot be ordered. */
    static Integer compare(Object a, Object b) {
        a = normalize(a);
        b = normalize(b);
        if (a instanceof Long x && b instanceof Long y) return Long.compare(x, y);
        if (isNumber(a) && isNumber(b)) return Double.compare(toDouble(a), toDouble(b));
        if (a instanceof String x && b instanceof String y) return Integer.signum(x.compareTo(y));
        if (a instanceof ZonedDateTime x && b instanceof ZonedDateTime y) return x.toInstant().compareTo(y.toInstant());
        if (a instanceof Duration x && b instanceof Duration y) return x.compareTo(y);
        return null;
    }

    /** Go's truth for the few places expr-lang converts (none: conditions must be bool); used for errors. */
    static boolean bool(Object value, String where, int column) {
        if (value instanceof Boolean b) return b;
        throw new CcmEvaluationException(column, where + " needs a bool, got " + describe(value));
    }

    /** A value for an error message: its type, and itself when short. */
    static String describe(Object value) {
        if (value == null) return "nil";
        String text = GoText.sprint(value);
        return type(value) + " " + (text.length() > 40 ? text.substring(0, 37) + "…" : value instanceof String ? "'" + text + "'" : text);
    }
}
