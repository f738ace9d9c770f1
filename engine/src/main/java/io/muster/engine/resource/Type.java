package io.muster.engine.resource;

import io.muster.engine.util.Numbers;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The type of a resource property. {@link #coerce} turns what YAML (or a rendered template) produced into
 * the Java value a kind reads, or explains what was expected.
 */
public enum Type {
    STRING("a string") {
        @Override
        Object convert(Object v) {
            return v instanceof String || v instanceof Number || v instanceof Boolean ? v.toString() : null;
        }
    },
    /**
     * A path, made canonical by {@link LexicalPath#normalize}; {@link Params#absolutePath} says what is wrong
     * with one that is not absolute or has control characters.
     */
    PATH("a path") {
        @Override
        Object convert(Object v) {
            Object s = STRING.convert(v);
            return s == null ? null : LexicalPath.normalize((String) s);
        }
    },
    BOOLEAN("true or false") {
        @Override
        Object convert(Object v) {
            if (v instanceof Boolean) return v;
            if ("true".equals(v)) return Boolean.TRUE;
            if ("false".equals(v)) return Boolean.FALSE;
            return null;
        }
    },
    INTEGER("a whole number") {
        @Override
        Object convert(Object v) {
            if (v instanceof Integer || v instanceof Long) return ((Number) v).longValue();
            if (v instanceof BigInteger b && b.bitLength() < 64) return b.longValue();
            if (v instanceof String s && s.strip().matches("-?[0-9]{1,18}")) return Long.parseLong(s.strip());
            return null;
        }
    },
    NUMBER("a number") {
        @Override
        Object convert(Object v) {
            if (v instanceof Number n) return n.doubleValue();
            if (v instanceof String s) {
                try {
                    double parsed = Double.parseDouble(s.strip());
                    return Numbers.underflows(s, parsed) ? null : parsed;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
            return null;
        }
    },
    /** A list of strings; a single string is a list of one. */
    STRING_LIST("a string or a list of strings") {
        @Override
        Object convert(Object v) {
            if (v instanceof List<?> list) {
                List<String> out = new ArrayList<>(list.size());
                for (Object item : list) {
                    Object s = STRING.convert(item);
                    if (s == null) return null;
                    out.add((String) s);
                }
                return List.copyOf(out);
            }
            Object s = STRING.convert(v);
            return s == null ? null : List.of(s);
        }
    },
    /** A list of whole numbers; a single number is a list of one. */
    INTEGER_LIST("a whole number or a list of them") {
        @Override
        Object convert(Object v) {
            List<?> items = v instanceof List<?> list ? list : List.of(v);
            List<Long> out = new ArrayList<>(items.size());
            for (Object item : items) {
                Object n = INTEGER.convert(item);
                if (n == null) return null;
                out.add((Long) n);
            }
            return List.copyOf(out);
        }
    },
    /** A map from names to scalar values, kept as strings. */
    STRING_MAP("a map of names to values") {
        @Override
        Object convert(Object v) {
            if (!(v instanceof Map<?, ?> map)) return null;
            Map<String, String> out = new LinkedHashMap<>();
            for (var e : map.entrySet()) {
                Object s = STRING.convert(e.getValue());
                if (s == null) return null;
                out.put(e.getKey().toString(), (String) s);
            }
            return out;
        }
    },
    /** Anything YAML can hold (maps, lists, scalars), unchanged. */
    ANY("any value") {
        @Override
        Object convert(Object v) {
            return v;
        }
    };

    private final String expected;

    Type(String expected) {
        this.expected = expected;
    }

    /** What a user must write, for error messages: "expected a string". */
    public String expected() {
        return expected;
    }

    /** The converted value, or null when {@code value} does not fit this type. */
    abstract Object convert(Object value);

    /** As {@link #convert}, for callers outside this package; null in, null out. */
    public Object tryConvert(Object value) {
        return value == null ? null : convert(value);
    }
}
