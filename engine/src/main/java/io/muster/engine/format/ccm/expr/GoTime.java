package io.muster.engine.format.ccm.expr;

import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

/** Go's reference-time layouts ({@code 2006-01-02 15:04:05 -0700 MST}) for {@code now().Format(…)} and printing a time. */
final class GoTime {
    private GoTime() {}

    static String format(ZonedDateTime t, String layout) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < layout.length()) {
            int used = chunk(t, layout, i, out);
            if (used == 0) {
                out.append(layout.charAt(i));
                used = 1;
            }
            i += used;
        }
        return out.toString();
    }

    /** Writes the layout element at {@code i}, if one starts there; how many characters it took (0: none). */
    private static int chunk(ZonedDateTime t, String layout, int i, StringBuilder out) {
        String rest = layout.substring(i);
        String[][] words = {
                {"January", t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH)},
                {"Jan", t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH)},
                {"Monday", t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH)},
                {"Mon", t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH)},
                {"MST", zone(t)},
                {"2006", pad(t.getYear(), 4)},
                {"002", pad(t.getDayOfYear(), 3)},
                {"__2", String.format("%3d", t.getDayOfYear())},
                {"_2", String.format("%2d", t.getDayOfMonth())},
                {"01", pad(t.getMonthValue(), 2)},
                {"02", pad(t.getDayOfMonth(), 2)},
                {"03", pad(hour12(t), 2)},
                {"04", pad(t.getMinute(), 2)},
                {"05", pad(t.getSecond(), 2)},
                {"06", pad(t.getYear() % 100, 2)},
                {"15", pad(t.getHour(), 2)},
                {"PM", t.getHour() >= 12 ? "PM" : "AM"},
                {"pm", t.getHour() >= 12 ? "pm" : "am"},
                {"-07:00:00", offset(t, ":", true, false)}, {"-070000", offset(t, "", true, false)},
                {"-07:00", offset(t, ":", false, false)}, {"-0700", offset(t, "", false, false)}, {"-07", offset(t, "", false, false).substring(0, 3)},
                {"Z07:00:00", offset(t, ":", true, true)}, {"Z070000", offset(t, "", true, true)},
                {"Z07:00", offset(t, ":", false, true)}, {"Z0700", offset(t, "", false, true)}, {"Z07", offsetShortZ(t)},
                {"1", Integer.toString(t.getMonthValue())},
                {"2", Integer.toString(t.getDayOfMonth())},
                {"3", Integer.toString(hour12(t))},
                {"4", Integer.toString(t.getMinute())},
                {"5", Integer.toString(t.getSecond())},
        };
        if ((rest.startsWith(".") || rest.startsWith(",")) && rest.length() > 1 && (rest.charAt(1) == '0' || rest.charAt(1) == '9')) {
            char digit = rest.charAt(1);
            int n = 1;
            while (n < rest.length() && rest.charAt(n) == digit) n++;
            if (n >= rest.length() || !Character.isDigit(rest.charAt(n))) {
                out.append(fraction(t.getNano(), n - 1, digit == '9', rest.charAt(0)));
                return n;
            }
        }
        for (String[] word : words) {
            if (rest.startsWith(word[0])) {
                out.append(word[1]);
                return word[0].length();
            }
        }
        return 0;
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

    private static String offsetShortZ(ZonedDateTime t) {
        String full = offset(t, "", false, true);
        return full.equals("Z") ? full : full.substring(0, 3);
    }

    private static String pad(int value, int width) {
        String s = Integer.toString(value);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }
}
