package io.muster.engine.util;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A strict JSON (RFC 8259) reader: objects become insertion-ordered maps, so a rewrite keeps the order
 * the file had. Whole numbers become {@code Long} (or {@code BigInteger}); others {@code BigDecimal},
 * which keeps their digits ({@code 1.50} stays {@code 1.50} when written back). Duplicate keys are errors,
 * since which one wins differs between tools.
 */
final class JsonReader {
    private static final int MAX_DEPTH = 200;

    private final String text;
    private int at;

    private JsonReader(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException with the line and column of the first mistake */
    static Object read(String text) {
        JsonReader reader = new JsonReader(text);
        reader.peek('\uFEFF'); // a byte order mark some editors write
        reader.skipSpace();
        Object value = reader.value(0);
        reader.skipSpace();
        if (reader.at < text.length()) throw reader.unexpected("expected the end of the document");
        return value;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH + " levels");
        if (at >= text.length()) throw unexpected("expected a value");
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) yield number();
                throw unexpected("expected a value");
            }
        };
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> out = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek('}')) return out;
        while (true) {
            skipSpace();
            if (at >= text.length() || text.charAt(at) != '"') throw unexpected("expected a quoted key");
            int keyAt = at;
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            Object value = value(depth + 1);
            if (out.containsKey(key)) {
                at = keyAt;
                throw error("duplicate key \"" + key + "\"");
            }
            out.put(key, value);
            skipSpace();
            if (peek('}')) return out;
            expect(',');
        }
    }

    private List<Object> array(int depth) {
        List<Object> out = new ArrayList<>();
        at++;
        skipSpace();
        if (peek(']')) return out;
        while (true) {
            skipSpace();
            out.add(value(depth + 1));
            skipSpace();
            if (peek(']')) return out;
            expect(',');
        }
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) throw error("unterminated string");
            char c = text.charAt(at++);
            if (c == '"') return out.toString();
            if (c < 0x20) {
                at--;
                throw error("control character in a string (escape it)");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) throw error("unterminated string");
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length() || !text.substring(at, at + 4).matches("[0-9a-fA-F]{4}")) {
                        throw error("expected four hex digits after \\u");
                    }
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> {
                    at--;
                    throw error("invalid escape \\" + e);
                }
            }
        }
    }

    private Number number() {
        int start = at;
        peek('-');
        if (peek('0')) {
            if (at < text.length() && Character.isDigit(text.charAt(at))) throw error("leading zeros are not allowed");
        } else {
            digits();
        }
        boolean whole = true;
        if (peek('.')) {
            whole = false;
            digits();
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            whole = false;
            at++;
            if (!peek('+')) peek('-');
            digits();
        }
        String literal = text.substring(start, at);
        if (!whole) return new BigDecimal(literal);
        BigInteger big = new BigInteger(literal);
        return big.bitLength() < 64 ? (Number) big.longValue() : big;
    }

    private void digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') at++;
        if (at == start) throw unexpected("expected a digit");
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) throw unexpected("expected a value");
        at += word.length();
        return value;
    }

    private void skipSpace() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            at++;
        }
    }

    /** Consumes {@code c} when it is next. */
    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!peek(c)) throw unexpected("expected '" + c + "'");
    }

    private IllegalArgumentException error(String message) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < Math.min(at, text.length()); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new IllegalArgumentException("line " + line + " column " + (at - lineStart + 1) + ": " + message);
    }

    /** An error for what is at the position, which it names. */
    private IllegalArgumentException unexpected(String expected) {
        if (at >= text.length()) return error(expected + ", found the end of the document");
        char c = text.charAt(at);
        return error(expected + ", found " + (c < 0x20 ? String.format(Locale.ROOT, "\\u%04x", (int) c) : "'" + c + "'"));
    }
}
