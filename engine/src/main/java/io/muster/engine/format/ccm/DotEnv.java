package io.muster.engine.format.ccm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /**
     * {@code process} with the file {@code dotEnv} (a {@code .env}, if there is one) over it, both read as CCM reads
     * them. A view: a variable of the process is looked at when a template reads it, so the compiled-graph cache
     * depends on the variables read, not on all of them (a shell changes {@code OLDPWD} at every {@code cd}).
     */
    static Map<String, String> environ(Map<String, String> process, Path dotEnv) {
        Map<String, String> file = new LinkedHashMap<>();
        for (String line : lines(dotEnv)) add(file, line);
        return new Environ(process, Map.copyOf(file));
    }

    /** The file's entries over the process's, each of those read through CCM's pattern when asked for. */
    private static final class Environ extends AbstractMap<String, String> {
        private final Map<String, String> process;
        private final Map<String, String> file;

        Environ(Map<String, String> process, Map<String, String> file) {
            this.process = process;
            this.file = file;
        }

        @Override
        public String get(Object name) {
            if (file.containsKey(name)) return file.get(name);
            String value = name instanceof String n ? process.get(n) : null;
            if (value == null) return null;
            Matcher m = ENTRY.matcher(name + "=" + value);
            return m.matches() ? m.group(2) : null;
        }

        @Override
        public boolean containsKey(Object name) {
            return get(name) != null;
        }

        @Override
        public Set<Entry<String, String>> entrySet() { // a template that goes through all of them reads all of them
            Map<String, String> all = new LinkedHashMap<>();
            process.forEach((name, value) -> add(all, name + "=" + value));
            all.putAll(file);
            return Collections.unmodifiableMap(all).entrySet();
        }
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
