package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A file mode as CCM reads it: an octal number of at most 0777, written {@code "0644"}, {@code 644} or
 * {@code 0o644}. CCM reads the mode as the text written, so an unquoted number is read back from the manifest's
 * text (YAML 1.2 would make {@code 0644} decimal and {@code 0o644} the number 420).
 */
final class FileModes {
    private FileModes() {}

    /** The mode bits, or null when reported as invalid. */
    static Integer parse(CcmResource r, String property) {
        Mark at = r.markOf(property);
        Object raw = r.entry(property).orElseThrow().value().plain();
        String text = raw instanceof Number ? written(at).orElse(String.valueOf(raw)) : r.string(property);
        String digits = text.startsWith("0o") || text.startsWith("0O") ? text.substring(2) : text;
        if (!digits.matches("[0-7]+")) {
            r.problem(at, property + " '" + text + "' is not a valid octal number");
            return null;
        }
        long bits = Long.parseLong(digits.length() > 12 ? digits.substring(digits.length() - 12) : digits, 8);
        if (digits.length() > 12 || bits > 0777) {
            r.problem(at, property + " '" + text + "' exceeds maximum value 0777");
            return null;
        }
        return (int) bits;
    }

    /** CCM's directory mode: each class that may read or write may also search. */
    static int directory(int mode) {
        int out = mode;
        if ((mode & 0600) != 0) out |= 0100;
        if ((mode & 060) != 0) out |= 010;
        if ((mode & 06) != 0) out |= 01;
        return out;
    }

    static String format(int mode) {
        return String.format(Locale.ROOT, "%04o", mode);
    }

    /** The plain scalar written at {@code mark}, as text. */
    private static Optional<String> written(Mark mark) {
        try {
            List<String> lines = Files.readAllLines(mark.file(), StandardCharsets.UTF_8);
            if (mark.line() > lines.size()) return Optional.empty();
            String line = lines.get(mark.line() - 1);
            if (mark.column() > line.length()) return Optional.empty();
            String rest = line.substring(mark.column() - 1);
            int end = 0;
            while (end < rest.length() && !Character.isWhitespace(rest.charAt(end)) && ",}]#".indexOf(rest.charAt(end)) < 0) end++;
            return end == 0 ? Optional.empty() : Optional.of(rest.substring(0, end));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
