package io.muster.engine.format.ccm.expr;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's {@code time.ParseDuration}, for {@code duration('1h30m')}: a sequence of decimal numbers with units. */
final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, Long> NANOS = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L, "ms", 1_000_000L,
            "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDuration() {}

    static Duration parse(String text, Args args) {
        String s = text;
        boolean negative = s.startsWith("-");
        if (negative || s.startsWith("+")) s = s.substring(1);
        if (s.equals("0")) return Duration.ZERO;
        Matcher m = PART.matcher(s);
        BigDecimal total = BigDecimal.ZERO;
        int at = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) throw args.error("invalid duration '" + text + "'");
            total = total.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
            at = m.end();
        }
        if (s.isEmpty()) throw args.error("invalid duration '" + text + "'");
        long nanos = total.longValue();
        return Duration.ofNanos(negative ? -nanos : nanos);
    }
}
