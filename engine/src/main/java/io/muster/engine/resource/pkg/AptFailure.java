package io.muster.engine.resource.pkg;

import io.muster.engine.process.ProcessRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a package tool failed, in words: what apt's errors mean for the manifest (a package or version no source
 * has, the dpkg lock held too long) and what the tool said; otherwise the end of its output (dpkg's and a
 * maintainer script's complaints come on stdout) and its errors.
 */
final class AptFailure {
    private static final int KEPT_LINES = 30;
    private static final List<Meaning> MEANINGS = List.of(
            new Meaning(Pattern.compile("^E: Unable to locate package (\\S+)$", Pattern.MULTILINE),
                    "package '%s' is not in this host's apt sources"),
            new Meaning(Pattern.compile("^E: Version '([^']+)' for '([^']+)' was not found$", Pattern.MULTILINE),
                    "version %s of package '%s' is not in this host's apt sources"),
            new Meaning(Pattern.compile("^E: Package '([^']+)' has no installation candidate$", Pattern.MULTILINE),
                    "package '%s' has no installation candidate: no apt source has it, though another package refers to it"),
            new Meaning(Pattern.compile("^E: Could not get lock (\\S+)", Pattern.MULTILINE),
                    "another package manager held %s for more than " + Apt.LOCK_TIMEOUT_SECONDS + " s"));

    private AptFailure() {}

    private record Meaning(Pattern error, String explanation) {}

    /** The message for {@code argv} having ended with {@code outcome}: what it means, then what the tool said. */
    static String describe(List<String> argv, ProcessRunner.Outcome outcome) {
        String stderr = outcome.stderr().text().strip();
        List<String> meanings = new ArrayList<>();
        for (Meaning meaning : MEANINGS) {
            Matcher m = meaning.error().matcher(stderr);
            while (m.find()) meanings.add(meaning.explanation().formatted((Object[]) groups(m)));
        }
        if (!meanings.isEmpty()) return String.join("; ", meanings) + " (" + argv.getFirst() + " said: " + stderr + ")";
        String said = (tail(outcome.stdout().text()) + "\n" + tail(stderr)).strip();
        return "'" + String.join(" ", argv) + "' exited with " + outcome.exitCode() + (said.isEmpty() ? "" : ":\n" + said);
    }

    private static String[] groups(Matcher m) {
        String[] groups = new String[m.groupCount()];
        for (int i = 0; i < groups.length; i++) groups[i] = m.group(i + 1);
        return groups;
    }

    /** The last {@link #KEPT_LINES} lines of {@code text}: where a tool says what went wrong. */
    private static String tail(String text) {
        List<String> lines = List.of(text.strip().split("\n"));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - KEPT_LINES), lines.size()));
    }
}
