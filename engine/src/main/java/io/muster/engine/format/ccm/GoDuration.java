package io.muster.engine.format.ccm;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as CCM writes it (Go's {@code time.ParseDuration}, with choria's days, weeks and years): {@code 30s},
 * {@code 1m30s}, {@code 1.5h}, {@code 2d}. A bare number is refused, as Go refuses it (only {@code 0} needs no unit).
 */
final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h|d|w|y)");
    private static final Map<String, Double> SECONDS = Map.of("ns", 1e-9, "us", 1e-6, "µs", 1e-6, "ms", 1e-3, "s", 1.0, "m", 60.0,
            "h", 3600.0, "d", 86400.0, "w", 7 * 86400.0, "y", 365 * 86400.0);

    private GoDuration() {}

    /** The duration in seconds. @throws IllegalArgumentException saying what a duration looks like */
    static double seconds(String text) {
        String s = text.strip();
        if (s.equals("0")) return 0;
        Matcher m = PART.matcher(s);
        double total = 0;
        int at = 0;
        while (at < s.length() && m.find(at) && m.start() == at) {
            total += Double.parseDouble(m.group(1)) * SECONDS.get(m.group(2));
            at = m.end();
        }
        if (s.isEmpty() || at != s.length()) {
            throw new IllegalArgumentException("expected a duration like 30s, 1m30s or 2h, got '" + text + "'");
        }
        return total;
    }
}
