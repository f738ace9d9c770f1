package io.muster.engine.format.ccm.expr;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Values as text the way CCM writes them into a string: Go's {@code fmt.Sprint} ({@code <nil>}, {@code [a b]},
 * {@code map[k:v]}, {@code 1e+06}, {@code 1h30m0s}). A time is written without Go's monotonic clock suffix.
 */
final class GoText {
    private GoText() {}

    static String sprint(Object value) {
        value = Values.normalize(value);
        return switch (value) {
            case null -> "<nil>";
            case String s -> s;
            case Double d -> goFloat(d);
            case List<?> list -> list(list);
            case Map<?, ?> map -> map(map);
            case ZonedDateTime time -> GoTime.format(time, "2006-01-02 15:04:05.999999999 -0700 MST");
            case Duration duration -> duration(duration);
            default -> value.toString();
        };
    }

    private static String list(List<?> list) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < list.size(); i++) out.append(i == 0 ? "" : " ").append(sprint(list.get(i)));
        return out.append(']').toString();
    }

    /** Go prints a map's keys in sorted order. */
    private static String map(Map<?, ?> map) {
        StringBuilder out = new StringBuilder("map[");
        boolean first = true;
        for (Map.Entry<String, Object> e : new TreeMap<String, Object>(stringKeys(map)).entrySet()) {
            out.append(first ? "" : " ").append(e.getKey()).append(':').append(sprint(e.getValue()));
            first = false;
        }
        return out.append(']').toString();
    }

    private static Map<String, Object> stringKeys(Map<?, ?> map) {
        Map<String, Object> out = new TreeMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    /** Go's {@code %v} of a float64: the shortest digits, in exponent form below 1e-4 and from 1e+06 on. */
    static String goFloat(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (Double.isInfinite(d)) return d > 0 ? "+Inf" : "-Inf";
        if (d == 0) return (1 / d) < 0 ? "-0" : "0";
        BigDecimal exact = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = exact.unscaledValue().toString();
        int exponent = digits.length() - exact.scale() - 1;
        String sign = d < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 6) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String e = Integer.toString(Math.abs(exponent));
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        return sign + exact.toPlainString();
    }

    /** Go's {@code Duration.String()}: {@code 1h2m3.5s}, {@code 1.5ms}, {@code 0s}. */
    static String duration(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos == 0) return "0s";
        String sign = nanos < 0 ? "-" : "";
        long n = Math.abs(nanos);
        if (n < 1_000) return sign + n + "ns";
        if (n < 1_000_000) return sign + fraction(n, 1_000) + "µs";
        if (n < 1_000_000_000) return sign + fraction(n, 1_000_000) + "ms";
        StringBuilder out = new StringBuilder(sign);
        long hours = n / 3_600_000_000_000L;
        long minutes = n / 60_000_000_000L % 60;
        if (hours > 0) out.append(hours).append('h');
        if (hours > 0 || minutes > 0) out.append(minutes).append('m');
        return out.append(fraction(n % 60_000_000_000L, 1_000_000_000)).append('s').toString();
    }

    private static String fraction(long value, long unit) {
        String whole = Long.toString(value / unit);
        long rest = value % unit;
        if (rest == 0) return whole;
        String digits = String.format("%0" + Long.toString(unit - 1).length() + "d", rest).replaceAll("0+$", "");
        return whole + "." + digits;
    }
}
