package io.muster.engine.manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A YAML value that remembers where it was written, so that the compiler can point at the exact line
 * of every mistake. {@link #plain()} drops the marks once they are no longer needed.
 */
public sealed interface YNode permits YNode.Scalar, YNode.Seq, YNode.Dict {

    Mark mark();

    Object plain();

    /** How a user would name this kind of value in an error message. */
    String describe();

    record Scalar(Object value, Mark mark) implements YNode {
        @Override
        public Object plain() {
            return value;
        }

        @Override
        public String describe() {
            return describeValue(value);
        }
    }

    record Seq(List<YNode> items, Mark mark) implements YNode {
        @Override
        public Object plain() {
            List<Object> out = new ArrayList<>(items.size());
            for (YNode item : items) out.add(item.plain());
            return out;
        }

        @Override
        public String describe() {
            return "a list";
        }
    }

    /** A mapping with string keys, in the order they were written. */
    record Dict(Map<String, Entry> entries, Mark mark) implements YNode {
        public YNode get(String key) {
            Entry e = entries.get(key);
            return e == null ? null : e.value();
        }

        @Override
        public Object plain() {
            Map<String, Object> out = new LinkedHashMap<>();
            entries.forEach((k, e) -> out.put(k, e.value().plain()));
            return out;
        }

        @Override
        public String describe() {
            return "a map";
        }
    }

    record Entry(String key, Mark keyMark, YNode value) {}

    static String describeValue(Object value) {
        if (value == null) return "null";
        if (value instanceof String s) return "the string '" + printable(s) + "'";
        if (value instanceof Boolean b) return "the boolean " + b;
        if (value instanceof Number n) return "the number " + n;
        if (value instanceof List<?>) return "a list";
        if (value instanceof Map<?, ?>) return "a map";
        return value.toString();
    }

    /** {@code text} with control characters written as {@code \xHH}, so that an error message stays one readable line. */
    static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.chars().forEach(c -> out.append(Character.isISOControl(c) ? String.format(Locale.ROOT, "\\x%02X", c) : String.valueOf((char) c)));
        return out.toString();
    }
}
