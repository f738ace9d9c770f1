package io.muster.engine.format.ccm.expr;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Go's reference-time layouts ({@code 2006-01-02 15:04:05 -0700 MST}): writing a time for {@code now().Format(…)}
 * and printing, reading one for {@code date(text, layout)}.
 */
final class GoTime {
    /** One element of a layout: how Go writes it, and Java's pattern letters that read it. */
    private record Element(String token, Function<ZonedDateTime, String> write, String pattern) {}

    /** Longest and most specific first, as Go's layout scanner tries them. */
    private static final List<Element> ELEMENTS = List.of(
            new Element("January", t -> t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH), "MMMM"),
            new Element("Jan", t -> t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH), "MMM"),
            new Element("Monday", t -> t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH), "EEEE"),
            new Element("Mon", t -> t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH), "EEE"),
            new Element("MST", GoTime::zone, "z"),
            new Element("2006", t -> pad(t.getYear(), 4), "uuuu"),
            new Element("002", t -> pad(t.getDayOfYear(), 3), "DDD"),
            new Element("__2", t -> String.format("%3d", t.getDayOfYear()), "ppD"),
            new Element("_2", t -> String.format("%2d", t.getDayOfMonth()), "ppd"),
            new Element("01", t -> pad(t.getMonthValue(), 2), "MM"),
            new Element("02", t -> pad(t.getDayOfMonth(), 2), "dd"),
            new Element("03", t -> pad(hour12(t), 2), "hh"),
            new Element("04", t -> pad(t.getMinute(), 2), "mm"),
            new Element("05", t -> pad(t.getSecond(), 2), "ss"),
            new Element("06", t -> pad(t.getYear() % 100, 2), "uu"),
            new Element("15", t -> pad(t.getHour(), 2), "HH"),
            new Element("PM", t -> t.getHour() >= 12 ? "PM" : "AM", "a"),
            new Element("pm", t -> t.getHour() >= 12 ? "pm" : "am", "a"),
            new Element("-07:00:00", t -> offset(t, ":", true, false), "xxxxx"),
            new Element("-070000", t -> offset(t, "", true, false), "xxxx"),
            new Element("-07:00", t -> offset(t, ":", false, false), "xxx"),
            new Element("-0700", t -> offset(t, "", false, false), "xx"),
            new Element("-07", t -> offset(t, "", false, false).substring(0, 3), "x"),
            new Element("Z07:00:00", t -> offset(t, ":", true, true), "XXXXX"),
            new Element("Z070000", t -> offset(t, "", true, true), "XXXX"),
            new Element("Z07:00", t -> offset(t, ":", false, true), "XXX"),
            new Element("Z0700", t -> offset(t, "", false, true), "XX"),
            new Element("Z07", t -> offset(t, "", false, true).replaceFirst("^([+-]\\d\\d)\\d\\d$", "$1"), "X"),
            new Element("1", t -> Integer.toString(t.getMonthValue()), "M"),
            new Element("2", t -> Integer.toString(t.getDayOfMonth()), "d"),
            new Element("3", t -> Integer.toString(hour12(t)), "h"),
            new Element("4", t -> Integer.toString(t.getMinute()), "m"),
            new Element("5", t -> Integer.toString(t.getSecond()), "s"));

    private GoTime() {}

    static String format(ZonedDateTime t, String layout) {
        StringBuilder out = new StringBuilder();
        walk(layout, (element, fraction, literal) -> {
            if (element != null) out.append(element.write().apply(t));
            else if (fraction != null) out.append(fraction(t.getNano(), fraction.length() - 1, fraction.charAt(1) == '9', fraction.charAt(0)));
            else out.append(literal);
        });
        return out.toString();
    }

    /** {@code text} read with {@code layout}, in {@code zone} when the layout gives no offset. */
    static ZonedDateTime parse(String text, String layout, ZoneId zone) {
        DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder().parseCaseInsensitive();
        StringBuilder letters = new StringBuilder();
        walk(layout, (element, fraction, literal) -> {
            if (element != null) {
                builder.appendPattern(element.pattern());
                letters.append(element.pattern().charAt(0));
            } else if (fraction != null) {
                builder.appendFraction(ChronoField.NANO_OF_SECOND, fraction.charAt(1) == '9' ? 0 : fraction.length() - 1, 9, true);
            } else {
                builder.appendLiteral(literal);
            }
        });
        String found = letters.toString();
        // a date alone is its midnight; a time alone is on Go's zero date, January 1 of year 0
        if (found.indexOf('H') < 0 && found.indexOf('h') < 0) builder.parseDefaulting(ChronoField.HOUR_OF_DAY, 0);
        if (found.indexOf('u') < 0) builder.parseDefaulting(ChronoField.YEAR, 0);
        if (found.indexOf('M') < 0) builder.parseDefaulting(ChronoField.MONTH_OF_YEAR, 1);
        if (found.indexOf('d') < 0 && found.indexOf('D') < 0 && found.indexOf('p') < 0) builder.parseDefaulting(ChronoField.DAY_OF_MONTH, 1);
        DateTimeFormatter formatter = builder.toFormatter(Locale.ENGLISH).withZone(zone);
        return ZonedDateTime.parse(text, formatter);
    }

    /** What one step of {@link #walk} found: an element, a fraction ({@code .000}, {@code .999}), or a literal character. */
    private interface Step {
        void take(Element element, String fraction, Character literal);
    }

    private static void walk(String layout, Step step) {
        int i = 0;
        while (i < layout.length()) {
            String rest = layout.substring(i);
            String fraction = fraction(rest);
            if (fraction != null) {
                step.take(null, fraction, null);
                i += fraction.length();
                continue;
            }
            Element found = ELEMENTS.stream().filter(e -> rest.startsWith(e.token())).findFirst().orElse(null);
            if (found != null) {
                step.take(found, null, null);
                i += found.token().length();
            } else {
                step.take(null, null, layout.charAt(i++));
            }
        }
    }

    /** A fractional-second element at the start of {@code rest}: {@code .} or {@code ,} then 0s or 9s, no digit after. */
    private static String fraction(String rest) {
        if (rest.length() < 2 || (rest.charAt(0) != '.' && rest.charAt(0) != ',') || (rest.charAt(1) != '0' && rest.charAt(1) != '9')) return null;
        int n = 1;
        while (n < rest.length() && rest.charAt(n) == rest.charAt(1)) n++;
        return n < rest.length() && Character.isDigit(rest.charAt(n)) ? null : rest.substring(0, n);
    }

    private static String fraction(int nanos, int digits, boolean trim, char separator) {
        String all = pad(nanos, 9).substring(0, Math.min(9, digits));
        if (trim) all = all.replaceAll("0+$", "");
        return all.isEmpty() ? "" : separator + all;
    }

    private static int hour12(ZonedDateTime t) {
        int h = t.getHour() % 12;
        return h == 0 ? 12 : h;
    }

    private static String zone(ZonedDateTime t) {
        if (t.getZone().getId().equals("Z") || t.getZone().getId().equals("UTC")) return "UTC";
        String name = t.getZone().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
        return name.startsWith("GMT") || name.contains("/") ? offset(t, "", false, false) : name;
    }

    private static String offset(ZonedDateTime t, String colon, boolean seconds, boolean zulu) {
        int total = t.getOffset().getTotalSeconds();
        if (zulu && total == 0) return "Z";
        int abs = Math.abs(total);
        String text = (total < 0 ? "-" : "+") + pad(abs / 3600, 2) + colon + pad(abs / 60 % 60, 2);
        return seconds ? text + colon + pad(abs % 60, 2) : text;
    }

    private static String pad(int value, int width) {
        String s = Integer.toString(value);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }

    /** The layouts {@code date(text)} tries, as expr-lang does, when none is given. */
    static final List<String> DEFAULT_LAYOUTS = List.of("2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05Z07:00",
            "2006-01-02 15:04:05 -0700 MST", "2006-01-02 15:04:05 -0700", "2006-01-02T15:04:05", "2006-01-02 15:04:05",
            "2006-01-02", "15:04:05", "02 Jan 06 15:04 MST", "Monday, 02-Jan-06 15:04:05 MST", "Mon, 02 Jan 2006 15:04:05 MST",
            "Mon, 02 Jan 2006 15:04:05 -0700");

    /** Reads {@code text} with the first of {@code layouts} that fits; null when none does. */
    static ZonedDateTime parseAny(String text, List<String> layouts, ZoneId zone) {
        for (String layout : layouts) {
            try {
                return parse(text, layout, zone);
            } catch (DateTimeParseException e) {
                // try the next layout
            }
        }
        return null;
    }
}
