package io.muster.engine.format.ccm.expr;

import io.muster.engine.util.Plain;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code toJSON} as Go's {@code json.MarshalIndent(v, "", "  ")} writes (keys sorted, floats in Go's form, HTML
 * characters escaped) and {@code fromJSON}, both through muster's JSON. A whole number read from JSON is an int
 * here, where Go reads every JSON number as a float.
 */
final class Json {
    private Json() {}

    /** A float as Go writes it in JSON: plain from 1e-6 to below 1e21, else with an exponent. */
    private static final class GoNumber extends Number {
        private final double value;

        GoNumber(double value) {
            this.value = value;
        }

        @Override
        public String toString() {
            double abs = Math.abs(value);
            if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) return GoText.goFloat(value).replaceFirst("e([+-])0(\\d)$", "e$1$2");
            return new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
        }

        @Override
        public int intValue() {
            return (int) value;
        }

        @Override
        public long longValue() {
            return (long) value;
        }

        @Override
        public float floatValue() {
            return (float) value;
        }

        @Override
        public double doubleValue() {
            return value;
        }
    }

    static String write(Object value, Args args) {
        String json = io.muster.engine.util.Json.pretty(goShape(Values.normalize(value), args));
        // these stand only inside strings in JSON text, where Go escapes them
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }

    private static Object goShape(Object value, Args args) {
        return switch (value) {
            case Double d when d.isNaN() || d.isInfinite() -> throw args.error("json: unsupported value: " + GoText.goFloat(d));
            case Double d -> new GoNumber(d);
            case List<?> list -> {
                List<Object> out = new ArrayList<>();
                for (Object item : list) out.add(goShape(Values.normalize(item), args));
                yield out;
            }
            case Map<?, ?> map -> {
                Map<String, Object> out = new TreeMap<>();
                map.forEach((k, v) -> out.put(String.valueOf(k), goShape(Values.normalize(v), args)));
                yield out;
            }
            case ZonedDateTime t -> t.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
            case Duration d -> d.toNanos();
            case null, default -> value;
        };
    }

    static Object read(String text, Args args) {
        try {
            return Plain.of(io.muster.engine.util.Json.parse(text));
        } catch (IllegalArgumentException e) {
            throw args.error("invalid JSON: " + e.getMessage());
        }
    }
}
