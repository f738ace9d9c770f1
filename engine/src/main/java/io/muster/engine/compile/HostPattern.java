package io.muster.engine.compile;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A host-name pattern of a {@code nodes:} section (and of {@code meta.export.to}, {@code collect.from}), matched against the whole name, case-sensitively, as Salt
 * matches minion ids: {@code /regex/} is a Java regular expression; anything else is a glob as Salt's
 * (Python's {@code fnmatch}): {@code *} matches any run of characters, dots included ({@code web*} matches
 * {@code web1.example.com}), {@code ?} one character, {@code [ab]}, {@code [a-z]} and {@code [!ab]} one of (or
 * none of) a set; every other character is itself. Unlike {@code fnmatch}, which takes an unclosed {@code [}
 * literally, an unclosed {@code [} is an error: it is a typo far more often than a host name with a bracket.
 */
public final class HostPattern {
    private final Pattern pattern;

    private HostPattern(Pattern pattern) {
        this.pattern = pattern;
    }

    /**
     * The pattern {@code text} means.
     *
     * @throws IllegalArgumentException saying why {@code text} is not a valid glob or regular expression
     */
    public static HostPattern parse(String text) {
        if (text.isEmpty()) throw new IllegalArgumentException("not a pattern: it is empty");
        boolean regex = text.length() >= 2 && text.startsWith("/") && text.endsWith("/");
        String source = regex ? text.substring(1, text.length() - 1) : glob(text);
        try {
            return new HostPattern(Pattern.compile(source));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("not a valid " + (regex ? "regular expression" : "glob") + ": " + e.getDescription()
                    + (e.getIndex() < 0 || !regex ? "" : " near character " + (e.getIndex() + 2))); // counting the leading '/'
        }
    }

    public boolean matches(String host) {
        return pattern.matcher(host).matches();
    }

    /** The regular expression of a glob. */
    private static String glob(String glob) {
        StringBuilder regex = new StringBuilder();
        int i = 0;
        while (i < glob.length()) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                case '[' -> {
                    i = charClass(glob, i, regex);
                    continue;
                }
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
            i++;
        }
        return regex.toString();
    }

    /** Appends the set that starts at {@code open} ({@code [}) as a regex class; the index after its {@code ]}. */
    private static int charClass(String glob, int open, StringBuilder regex) {
        int i = open + 1;
        boolean negated = i < glob.length() && glob.charAt(i) == '!';
        if (negated) i++;
        int first = i;
        if (i < glob.length() && glob.charAt(i) == ']') i++; // as in fnmatch, a ']' first in the set is one of its characters
        while (i < glob.length() && glob.charAt(i) != ']') i++;
        if (i == glob.length()) {
            throw new IllegalArgumentException("not a valid glob: the '[' at character " + (open + 1) + " is not closed by a ']'");
        }
        regex.append(negated ? "[^" : "[");
        for (char member : glob.substring(first, i).toCharArray()) {
            if (member != '-' && !Character.isLetterOrDigit(member)) regex.append('\\'); // '^', '&', '[', '\' are literal in a glob
            regex.append(member);
        }
        regex.append(']');
        return i + 1;
    }
}
