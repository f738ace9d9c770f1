package io.muster.engine.resource;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Paths as a manifest writes them, made canonical without touching the file system: {@code //a},
 * {@code /x/../a}, {@code /x/./a} and {@code /a/} are all {@code /a}, so one file has one id. Symlinks are
 * not resolved (the file may not exist yet, and a link is the user's business). Control characters, NUL
 * included, are refused: Linux cannot hold NUL in a name, and the others are nearly always a mistake that
 * would also garble every log line naming the file.
 */
public final class LexicalPath {
    private LexicalPath() {}

    /** What is wrong with {@code path}, or null. */
    public static String problem(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (Character.isISOControl(c)) {
                return String.format(Locale.ROOT, "contains the control character U+%04X at position %d; a path may not contain"
                        + " control characters", (int) c, i + 1);
            }
        }
        return null;
    }

    /** {@code path} with {@code //}, {@code .}, {@code ..} and a trailing {@code /} collapsed; as it is when it has a {@link #problem}. */
    public static String normalize(String path) {
        return problem(path) == null ? Path.of(path).normalize().toString() : path;
    }
}
