package io.muster.coordinator.deploy;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * What a bundle leaves out: {@code .git} always, and what the bundle's {@code .musterignore} lists, with
 * gitignore's rules as far as a deploy needs them: one glob a line ({@code *}, {@code ?}, {@code [abc]},
 * {@code **} across directories), {@code #} comments and blank lines ignored; a pattern without a '/' (a
 * trailing one aside) matches a name at any depth, one with a '/' (a leading one too) matches the path from
 * the bundle's root; a trailing '/' matches directories only (and so everything under them); {@code !} re-includes
 * what an earlier line left out; the last line that matches decides.
 */
final class IgnoreRules {
    static final String FILE = ".musterignore";

    private record Rule(PathMatcher matcher, boolean byName, boolean directoriesOnly, boolean include) {}

    private final List<Rule> rules;

    private IgnoreRules(List<Rule> rules) {
        this.rules = rules;
    }

    /**
     * The rules of {@code root}'s {@code .musterignore}, none when there is none.
     *
     * @throws DeployException naming the line of a pattern that is not a valid glob
     */
    static IgnoreRules of(Path root) throws DeployException {
        Path file = root.resolve(FILE);
        if (!Files.isRegularFile(file)) return new IgnoreRules(List.of());
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new DeployException(file + ": cannot read (" + e.getMessage() + ")");
        }
        FileSystem fs = FileSystems.getDefault();
        List<Rule> rules = new ArrayList<>();
        for (int n = 0; n < lines.size(); n++) {
            String pattern = lines.get(n).strip();
            if (pattern.isEmpty() || pattern.startsWith("#")) continue;
            boolean include = pattern.startsWith("!");
            if (include) pattern = pattern.substring(1);
            boolean directoriesOnly = pattern.endsWith("/");
            if (directoriesOnly) pattern = pattern.substring(0, pattern.length() - 1);
            boolean byName = !pattern.contains("/");
            if (pattern.startsWith("/")) pattern = pattern.substring(1);
            if (pattern.isEmpty()) throw new DeployException(file + ":" + (n + 1) + ":1: expected a glob, got '" + lines.get(n).strip() + "'");
            try {
                rules.add(new Rule(fs.getPathMatcher("glob:" + pattern), byName, directoriesOnly, include));
            } catch (IllegalArgumentException e) { // PatternSyntaxException among them
                throw new DeployException(file + ":" + (n + 1) + ":1: not a valid glob '" + pattern + "': " + e.getMessage());
            }
        }
        return new IgnoreRules(List.copyOf(rules));
    }

    /** Whether {@code relative} (a path in the bundle) is left out; a directory left out takes what it holds. */
    boolean ignores(Path relative, boolean directory) {
        if (relative.getFileName().toString().equals(".git")) return true;
        boolean ignored = false;
        for (Rule rule : rules) {
            if (rule.directoriesOnly && !directory) continue;
            Path subject = rule.byName ? relative.getFileName() : relative;
            if (rule.matcher.matches(subject)) ignored = !rule.include;
        }
        return ignored;
    }
}
