package io.muster.engine.health.goss;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * goss's patterns for a text (a file's {@code contents}, a command's {@code stdout} and {@code stderr}, an http
 * {@code body}): each must be found on some line, as a substring or, written {@code /like this/}, a regular expression;
 * one starting with {@code !} must be found on none. Any other value for such an attribute is a {@link Matcher} of the
 * whole text.
 */
final class Patterns {
    private record One(String written, Pattern regexp, String text, boolean negated) {
        boolean foundIn(String line) {
            return regexp != null ? regexp.matcher(line).find() : line.contains(text);
        }
    }

    private final List<One> patterns;

    private Patterns(List<One> patterns) {
        this.patterns = patterns;
    }

    static Patterns of(List<?> written, String where) {
        List<One> patterns = new ArrayList<>();
        for (Object item : written) {
            if (!(item instanceof String s)) throw new IllegalArgumentException(where + ": expected a list of patterns (strings), got " + Matcher.quote(item));
            boolean negated = s.startsWith("!");
            String body = negated ? s.substring(1) : s;
            Pattern regexp = body.length() >= 2 && body.startsWith("/") && body.endsWith("/")
                    ? Matcher.regexp(body.substring(1, body.length() - 1), where) : null;
            patterns.add(new One(s, regexp, body, negated));
        }
        return new Patterns(patterns);
    }

    /** Null when every pattern holds for {@code text}, else those that do not. */
    String mismatch(String text) {
        String[] lines = text.split("\n", -1);
        List<String> failed = new ArrayList<>();
        for (One p : patterns) {
            boolean found = false;
            for (String line : lines) found |= p.foundIn(line);
            if (found == p.negated()) failed.add(p.written());
        }
        return failed.isEmpty() ? null : "patterns not found: " + Matcher.quote(failed);
    }
}
