package io.muster.engine.format.ccm;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as CCM writes it (Go's {@code time.ParseDuration}, with choria fisk's days {@code d}/{@code D}, weeks
 * {@code w}/{@code W}, 30-day months {@code M} and years {@code y}/{@code Y}): {@code 30s}, {@code 1m30s}, {@code 1.5h},
 * {@code 2d}. A bare number is refused, as Go refuses it (only {@code 0} needs no unit).
 */
final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h|d|D|w|W|M|y|Y)");
    private static final Map<String, Double> SECONDS = Map.ofEntries(Map.entry("ns", 1e-9), Map.entry("us", 1e-6),
            Map.entry("µs", 1e-6), Map.entry("ms", 1e-3), Map.entry("s", 1.0), Map.entry("m", 60.0), Map.entry("h", 3600.0),
            Map.entry("d", 86400.0), Map.entry("D", 86400.0), Map.entry("w", 7 * 86400.0), Map.entry("W", 7 * 86400.0),
            Map.entry("M", 30 * 86400.0), Map.entry("y", 365 * 86400.0), Map.entry("Y", 365 * 86400.0));

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
