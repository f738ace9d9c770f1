package io.muster.engine.resource.cron;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A crontab's lines and the named entries in it. An entry is its marker line ({@link #MARKER} and the name),
 * the environment lines right after it and the job line that follows them.
 */
record Crontab(List<String> lines) {
    static final String MARKER = "# Muster Name: ";
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*\\s*=.*");

    Crontab {
        lines = List.copyOf(lines);
    }

    static Crontab parse(String text) {
        return new Crontab(text.isEmpty() ? List.of() : text.lines().toList());
    }

    /** The lines of entry {@code name}, marker included; empty when it has none. */
    List<String> entry(String name) {
        int start = lines.indexOf(MARKER + name);
        return start < 0 ? List.of() : lines.subList(start, end(start));
    }

    /** This crontab with entry {@code name} replaced by {@code entry} (marker included), or added at the end. */
    Crontab with(String name, List<String> entry) {
        int start = lines.indexOf(MARKER + name);
        List<String> out = new ArrayList<>(lines);
        if (start < 0) {
            out.addAll(entry);
        } else {
            out.subList(start, end(start)).clear();
            out.addAll(start, entry);
        }
        return new Crontab(out);
    }

    Crontab without(String name) {
        int start = lines.indexOf(MARKER + name);
        if (start < 0) return this;
        List<String> out = new ArrayList<>(lines);
        out.subList(start, end(start)).clear();
        return new Crontab(out);
    }

    String text() {
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }

    /** Where the entry starting at {@code start} ends: after its variables and its job line, if it has one. */
    private int end(int start) {
        int i = start + 1;
        while (i < lines.size() && VARIABLE.matcher(lines.get(i)).matches()) i++;
        if (i < lines.size() && !lines.get(i).startsWith("#") && !lines.get(i).isBlank()) i++;
        return i;
    }
}
