package io.muster.cli;

import io.muster.engine.report.Colors;
import io.muster.engine.report.TextReport;
import io.muster.engine.util.fs.Terminal;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Options shared by the commands that run a graph ({@code apply}, {@code plan}, {@code check}, {@code run}). */
final class RunFlags {
    enum Output { text, json }

    @Option(names = "--sema", paramLabel = "N", description = "At most N resources check or apply at once (default: the number of cores).")
    Integer sema;

    @Option(names = "--output", paramLabel = "FORMAT", description = "text or json (default: ${DEFAULT-VALUE}).", defaultValue = "text")
    Output output;

    enum When { auto, always, never }

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            description = "Colour status words and diffs: auto (on a terminal, unless NO_COLOR is set), always or never (default: ${DEFAULT-VALUE}).")
    When color;

    @ArgGroup(exclusive = true)
    Prefix prefix = new Prefix();

    @ArgGroup(exclusive = true)
    Loudness loudness = new Loudness();

    static final class Loudness {
        @Option(names = {"-q", "--quiet"}, description = "Print only what failed, no summary; log only warnings and errors.")
        boolean quiet;

        @Option(names = {"-v", "--verbose"}, description = "Print every resource, stable ones too.")
        boolean verbose;
    }

    static final class Prefix {
        @Option(names = "--prefix", paramLabel = "DIR", description = "Where muster keeps state (default: /var/lib/muster as root, else ~/.local/state/muster).")
        Path dir;

        @Option(names = "--tmp-prefix", description = "Keep state in a new temporary directory.")
        boolean tmp;
    }

    /** What --color asks for, always and never over NO_COLOR (as no-color.org has it); auto colours only a terminal. */
    Colors colors() {
        boolean on = switch (color) {
            case always -> true;
            case never -> false;
            case auto -> Terminal.standardOutput() && (System.getenv("NO_COLOR") == null || System.getenv("NO_COLOR").isEmpty());
        };
        return on ? Colors.ANSI : Colors.NONE;
    }

    /** What runs for a while, on {@code err}; nothing with --quiet, which is silent when all is well. */
    Progress progress(java.io.PrintWriter err) {
        return loudness.quiet ? Progress.silent() : Progress.on(err);
    }

    TextReport.Verbosity verbosity() {
        if (loudness.quiet) return TextReport.Verbosity.QUIET;
        return loudness.verbose ? TextReport.Verbosity.VERBOSE : TextReport.Verbosity.NORMAL;
    }

    /** --sema, a usage error below 1. */
    int sema(picocli.CommandLine.Model.CommandSpec spec) {
        int n = sema();
        if (n < 1) throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--sema must be at least 1, got " + n);
        return n;
    }

    /** --sema as given, or the number of cores. */
    int sema() {
        return sema == null ? Runtime.getRuntime().availableProcessors() : sema;
    }

    /** Whether runs on this prefix lock it: a temporary prefix is new to this run, so no other shares it. */
    boolean sharedPrefix() {
        return !prefix.tmp;
    }

    Path prefix() {
        // --tmp-prefix first: a --prefix from muster.conf or MUSTER_PREFIX is only a default, which the command line overrides
        if (prefix.tmp) { // created only when a resource keeps state, so a run that keeps none leaves nothing behind
            String name = "muster-prefix-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
            return Path.of(System.getProperty("java.io.tmpdir"), name);
        }
        if (prefix.dir != null) return prefix.dir.toAbsolutePath();
        return defaultPrefix();
    }

    /** Where muster keeps state when no --prefix says: /var/lib/muster as root, else the user's XDG state directory. */
    static Path defaultPrefix() {
        if ("root".equals(System.getProperty("user.name"))) return Path.of("/var/lib/muster");
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("muster");
    }
}
