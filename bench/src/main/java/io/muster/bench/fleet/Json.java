package io.muster.bench.fleet;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A JSON object built key by key, printed in insertion order: numbers, strings, nested objects, null. */
final class Json {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    Json put(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("{");
        String sep = "";
        for (Map.Entry<String, Object> f : fields.entrySet()) {
            out.append(sep).append(string(f.getKey())).append(':').append(value(f.getValue()));
            sep = ",";
        }
        return out.append('}').toString();
    }

    private static String value(Object v) {
        if (v == null) return "null";
        if (v instanceof Double d) return d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.2f", d);
        if (v instanceof Number || v instanceof Boolean || v instanceof Json) return v.toString();
        return string(v.toString());
    }

    private static String string(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
