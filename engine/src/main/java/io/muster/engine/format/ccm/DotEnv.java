package io.muster.engine.format.ccm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The environment a CCM template reads as {@code Environ}, as {@code ccm apply} builds it: the process's
 * variables, then the {@code NAME=value} lines of a {@code .env} file in the working directory (where the command
 * is run, not the manifest's directory), a later one winning. Each entry is split by CCM's own pattern, so an
 * entry with an empty value is left out, quotes before the value are dropped and a closing quote is kept
 * ({@code A="b"} reads {@code b"}), and a line that does not match (a comment, a blank) is ignored.
 */
final class DotEnv {
    private static final Pattern ENTRY = Pattern.compile("^(.+?)=\"*(.+)\"*$");

    private DotEnv() {}

    /** {@code process} with the {@code .env} of {@code directory} over it, both read as CCM reads them. */
    static Map<String, String> environ(Map<String, String> process, Path directory) {
        Map<String, String> environ = new LinkedHashMap<>();
        process.forEach((name, value) -> add(environ, name + "=" + value));
        for (String line : lines(directory.resolve(".env"))) add(environ, line);
        return environ;
    }

    private static void add(Map<String, String> environ, String entry) {
        Matcher m = ENTRY.matcher(entry);
        if (m.matches()) environ.put(m.group(1), m.group(2));
    }

    private static List<String> lines(Path file) {
        if (!Files.isRegularFile(file)) return List.of();
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (CCM's environment file): " + e.getMessage(), e);
        }
    }
}
