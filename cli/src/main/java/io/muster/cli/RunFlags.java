package io.muster.cli;

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

    @ArgGroup(exclusive = true)
    Prefix prefix = new Prefix();

    static final class Prefix {
        @Option(names = "--prefix", paramLabel = "DIR", description = "Where muster keeps state (default: /var/lib/muster as root, else ~/.local/state/muster).")
        Path dir;

        @Option(names = "--tmp-prefix", description = "Keep state in a new temporary directory.")
        boolean tmp;
    }

    int sema(picocli.CommandLine.Model.CommandSpec spec) {
        int n = sema == null ? Runtime.getRuntime().availableProcessors() : sema;
        if (n < 1) throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--sema must be at least 1, got " + n);
        return n;
    }

    /** Whether runs on this prefix lock it: a temporary prefix is new to this run, so no other shares it. */
    boolean sharedPrefix() {
        return !prefix.tmp;
    }

    Path prefix() {
        if (prefix.dir != null) return prefix.dir.toAbsolutePath();
        if (prefix.tmp) { // created only when a resource keeps state, so a run that keeps none leaves nothing behind
            String name = "muster-prefix-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
            return Path.of(System.getProperty("java.io.tmpdir"), name);
        }
        return defaultPrefix();
    }

    /** /var/lib/muster as root, else $XDG_STATE_HOME/muster or ~/.local/state/muster. */
    static Path defaultPrefix() {
        if ("root".equals(System.getProperty("user.name"))) return Path.of("/var/lib/muster");
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("muster");
    }
}
