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
        if (raw instanceof String s && !s.matches("0?[0-7]{3,4}")) {
            return "expected an octal mode like \"0644\" or \"2755\", got '" + s + "'";
        }
        return null;
    }

    public static int parse(String mode) {
        return Integer.parseInt(mode, 8);
    }

    public static String format(int bits) {
        return String.format(Locale.ROOT, "%04o", bits & 07777);
    }
}
