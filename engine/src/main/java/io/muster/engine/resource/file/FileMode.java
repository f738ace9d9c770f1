package io.muster.engine.resource.file;

import java.util.Locale;

/** File permission bits written as an octal string: "0644", "755", "2775"; shared by the kinds that write files. */
public final class FileMode {
    private FileMode() {}

    /** Why {@code raw} is not a usable mode, or null when it is. */
    public static String problem(Object raw) {
        if (raw instanceof Number n) {
            return "write the mode as a quoted string like \"0644\"; the number " + n
                    + " is ambiguous (YAML 1.2 reads 0644 as decimal 644)";
        }
        if (raw instanceof String s && !octal(s)) {
            return "expected an octal mode like \"0644\" or \"2755\", got '" + s + "'";
        }
        return null;
    }

    /** Whether {@code s} is 3 or 4 octal digits, after an optional 0: no regex, as each file resource checks its mode. */
    private static boolean octal(String s) {
        int digits = s.length() - (s.length() == 5 && s.charAt(0) == '0' ? 1 : 0);
        if (digits < 3 || digits > 4) return false;
        for (int i = s.length() - digits; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') return false;
        }
        return true;
    }

    public static int parse(String mode) {
        return Integer.parseInt(mode, 8);
    }

    public static String format(int bits) {
        return String.format(Locale.ROOT, "%04o", bits & 07777);
    }
}
