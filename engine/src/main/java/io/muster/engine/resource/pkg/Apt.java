package io.muster.engine.resource.pkg;

import io.muster.engine.process.ProcessRunner;
import io.muster.engine.resource.Change;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's package tools, run with argv: {@code dpkg-query} reads the database, {@code apt-cache policy} the
 * candidates, {@code apt-get} changes packages. apt-get runs without questions (a changed configuration file
 * keeps the admin's version), in the C locale (its messages are parsed), and waits up to
 * {@link #LOCK_TIMEOUT_SECONDS} for another package manager holding the dpkg lock.
 */
final class Apt {
    static final int LOCK_TIMEOUT_SECONDS = 300;
    private static final List<String> APT_GET = List.of("apt-get", "-y", "-q",
            "-o", "DPkg::Lock::Timeout=" + LOCK_TIMEOUT_SECONDS,
            "-o", "Dpkg::Options::=--force-confdef", "-o", "Dpkg::Options::=--force-confold");
    /** apt-get -s: what it would do, one line per package ({@code Inst hello [1.0] (2.0 local [all])}). */
    private static final Pattern SIMULATED = Pattern.compile("^(Inst|Remv|Purg) (\\S+)(?: \\[([^]]*)])?(?: \\((\\S+))?", Pattern.MULTILINE);
    private static final Pattern CANDIDATE = Pattern.compile("^  Candidate: (\\S+)$");

    private final ProcessRunner runner = new ProcessRunner(null,
            Map.of("DEBIAN_FRONTEND", "noninteractive", "APT_LISTCHANGES_FRONTEND", "none", "LC_ALL", "C"),
            List.of(), null, null, Duration.ofHours(1), true, ProcessRunner.DEFAULT_OUTPUT_LIMIT, true);

    /** Every package dpkg knows, in one {@code dpkg-query}. */
    Installed query() throws IOException, InterruptedException {
        List<String> argv = List.of("dpkg-query", "-W", "-f=" + Installed.FORMAT);
        return Installed.parse(succeed(argv, runner.run(argv, "dpkg-query")).stdout().text());
    }

    /** The version apt would install for each of {@code names}; a package no source has is left out. */
    Map<String, String> candidates(Collection<String> names) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("apt-cache", "policy"));
        argv.addAll(names);
        String output = succeed(argv, runner.run(argv, "apt-cache policy")).stdout().text();
        Map<String, String> candidates = new HashMap<>();
        String current = null;
        for (String line : output.split("\n")) {
            if (!line.startsWith(" ") && line.endsWith(":")) current = line.substring(0, line.length() - 1);
            Matcher candidate = CANDIDATE.matcher(line);
            if (current != null && candidate.matches() && !candidate.group(1).equals("(none)")) candidates.put(current, candidate.group(1));
        }
        return candidates;
    }

    /** What {@code transaction} would change, as {@code apt-get -s} says; nothing changes. */
    List<Change> simulate(AptTransaction transaction) throws IOException, InterruptedException {
        List<String> argv = transaction.argv(APT_GET, true);
        String output = succeed(argv, runner.run(argv, "apt-get")).stdout().text();
        List<Change> changes = new ArrayList<>();
        Matcher line = SIMULATED.matcher(output);
        while (line.find()) {
            boolean removal = !line.group(1).equals("Inst");
            String from = line.group(3) != null ? line.group(3) : removal ? "config-files" : "absent"; // Purg of a removed package
            changes.add(Change.of(line.group(2), from, removal ? "absent" : line.group(4)));
        }
        return changes;
    }

    /** Runs {@code transaction}. */
    void run(AptTransaction transaction) throws IOException, InterruptedException {
        List<String> argv = transaction.argv(APT_GET, false);
        succeed(argv, runner.run(argv, "apt-get"));
    }

    private static ProcessRunner.Outcome succeed(List<String> argv, ProcessRunner.Outcome outcome) throws IOException {
        if (outcome.exitCode() != 0) throw new IOException(AptFailure.describe(argv, outcome));
        return outcome;
    }
}
