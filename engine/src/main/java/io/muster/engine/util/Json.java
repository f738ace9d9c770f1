package io.muster.engine.util;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * Writes maps, lists, strings, numbers, booleans and null as JSON, keys in map order, so machine output
 * is stable from run to run; reads JSON back ({@link #parse}) in the same shapes.
 */
public final class Json {
    private Json() {}

    /** Pretty-printed with two-space indentation. */
    public static String pretty(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    /** On one line, with no spaces between tokens: for a stream of documents, one a line (Server-Sent Events). */
    public static String compact(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, COMPACT);
        return out.toString();
    }

    /** The depth that writes no newlines nor indentation: below zero however deep a document nests. */
    private static final int COMPACT = Integer.MIN_VALUE / 2;

    /**
     * Parses one JSON document strictly (see {@link JsonReader} for the Java types it gives).
     *
     * @throws IllegalArgumentException naming the line and column of the first mistake
     */
    public static Object parse(String text) {
        return JsonReader.read(text);
    }

    private static void write(Object value, StringBuilder out, int depth) {
        switch (value) {
            case null -> out.append("null");
            case String s -> string(s, out);
            case Boolean b -> out.append(b);
            case Double d when d.isNaN() || d.isInfinite() -> out.append("null");
            case Float f when f.isNaN() || f.isInfinite() -> out.append("null");
            case Number n -> out.append(n);
            case Map<?, ?> map -> {
                out.append('{');
                int i = 0;
                for (var e : map.entrySet()) {
                    if (i++ > 0) out.append(',');
                    newline(out, depth + 1);
                    string(String.valueOf(e.getKey()), out);
                    out.append(depth < 0 ? ":" : ": ");
                    write(e.getValue(), out, depth + 1);
                }
                if (i > 0) newline(out, depth);
                out.append('}');
            }
            case Collection<?> list -> {
                out.append('[');
                int i = 0;
                for (Object item : list) {
                    if (i++ > 0) out.append(',');
                    newline(out, depth + 1);
                    write(item, out, depth + 1);
                }
                if (i > 0) newline(out, depth);
                out.append(']');
            }
            default -> string(value.toString(), out);
        }
    }

    private static void newline(StringBuilder out, int depth) {
        if (depth < 0) return;
        out.append('\n');
        out.append("  ".repeat(depth));
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
