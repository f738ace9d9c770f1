package io.muster.cli;

import io.muster.engine.compile.Assignments;
import io.muster.engine.compile.CompileOptions;
import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code muster apply FILE [flags]} without picocli. Picocli's classes are Java 5 class files, which class-data sharing
 * cannot archive: building its model of apply loads about 150 of them from the jar on every run, some 80 ms of a
 * one-shot run. This reads the valid apply command lines that nearly every one-shot run is into the same
 * {@link ApplyCommand} picocli would fill, and declines everything else (help, any usage mistake, a bad setting, an
 * argument file, a flag it does not know): picocli then parses those as ever, so its messages and exit codes stay the
 * only ones. PlainApplyTest holds both paths to the same results.
 */
final class PlainApply {
    /** The flags of apply that take no value. */
    static final Set<String> SWITCHES = Set.of("--noop", "--health-check-only", "--diff", "--detailed-exitcodes", "--debug",
            "--tmp-prefix", "--no-cache", "-q", "--quiet", "-v", "--verbose");

    /** The flags of apply that take one; {@code --data} and {@code --fact} may repeat. */
    static final Set<String> VALUED = Set.of("--data", "--fact", "--facts", "--max-apply-depth", "--sema", "--output", "--color",
            "--prefix", "--wait-lock");

    private PlainApply() {}

    /** The apply that {@code args} ask for, or empty when picocli must read them. */
    static Optional<ApplyCommand> parse(List<String> args, Settings settings) {
        if (args.isEmpty() || !args.getFirst().equals("apply") || !settings.problems().isEmpty()) return Optional.empty();
        try {
            return Optional.of(new Reading(settings).read(args.subList(1, args.size())));
        } catch (Declined e) {
            return Optional.empty();
        }
    }

    /** Runs {@code apply} as picocli's execution would: logging per --debug or --quiet, an exception as an internal error. */
    static int run(ApplyCommand apply, PrintWriter out, PrintWriter err) {
        if (apply.manifest.debug) LogSetup.debug();
        else if (apply.run.loudness.quiet) LogSetup.quiet();
        try {
            return apply.run(out, err, apply.run.sema());
        } catch (Exception e) {
            return Main.internalError(e, err, apply.manifest.debug);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Standard output as picocli writes it: in the encoding the JVM found for it, else the default one. */
    static PrintWriter stdout() {
        return writer(System.out, System.getProperty("sun.stdout.encoding"));
    }

    static PrintWriter stderr() {
        return writer(System.err, System.getProperty("sun.stderr.encoding"));
    }

    private static PrintWriter writer(OutputStream stream, String encoding) {
        Charset charset;
        try {
            charset = encoding == null ? Charset.defaultCharset() : Charset.forName(encoding);
        } catch (IllegalArgumentException e) {
            charset = Charset.defaultCharset();
        }
        return new PrintWriter(new BufferedWriter(new OutputStreamWriter(stream, charset)), true);
    }

    /** Something picocli must parse (and most likely refuse). */
    private static final class Declined extends Exception {
        Declined() {
            super(null, null, false, false);
        }
    }

    /** One reading of the arguments after {@code apply}. */
    private static final class Reading {
        private final Settings settings;
        private final ApplyCommand apply = new ApplyCommand();
        private final Set<String> given = new HashSet<>();

        Reading(Settings settings) {
            this.settings = settings;
            apply.manifest = new ManifestOptions();
            apply.run = new RunFlags();
            apply.locking = new LockFlags();
            apply.cache = new CacheFlag();
            apply.manifest.maxApplyDepth = CompileOptions.DEFAULT_MAX_APPLY_DEPTH; // the flags' own defaults
            apply.run.output = RunFlags.Output.text;
            apply.run.color = RunFlags.When.auto;
        }

        ApplyCommand read(List<String> args) throws Declined {
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                if (arg.startsWith("@") || arg.equals("--")) throw new Declined(); // an argument file; the end of options
                if (!arg.startsWith("-")) {
                    if (apply.manifest.manifest != null) throw new Declined();
                    apply.manifest.manifest = Path.of(arg);
                    continue;
                }
                int equals = arg.startsWith("--") ? arg.indexOf('=') : -1;
                String name = equals < 0 ? arg : arg.substring(0, equals);
                if (SWITCHES.contains(name) && equals < 0) {
                    once(name);
                    set(name);
                } else if (VALUED.contains(name)) {
                    if (equals < 0 && i + 1 == args.size()) throw new Declined();
                    String value = equals < 0 ? args.get(++i) : arg.substring(equals + 1);
                    if (value.isEmpty() || value.startsWith("-") || value.startsWith("@")) throw new Declined();
                    if (!name.equals("--data") && !name.equals("--fact")) once(name);
                    set(name, value);
                } else {
                    throw new Declined();
                }
            }
            if (apply.manifest.manifest == null) throw new Declined();
            defaults();
            check();
            return apply;
        }

        private void once(String name) throws Declined {
            if (!given.add(name)) throw new Declined();
        }

        private void set(String name) {
            switch (name) {
                case "--noop" -> apply.noop = true;
                case "--health-check-only" -> apply.healthCheckOnly = true;
                case "--diff" -> apply.diff = true;
                case "--detailed-exitcodes" -> apply.detailed = true;
                case "--debug" -> apply.manifest.debug = true;
                case "--tmp-prefix" -> apply.run.prefix.tmp = true;
                case "--no-cache" -> apply.cache.off = true;
                case "-q", "--quiet" -> apply.run.loudness.quiet = true;
                default -> apply.run.loudness.verbose = true; // -v, --verbose
            }
        }

        private void set(String name, String value) throws Declined {
            switch (name) {
                case "--data" -> apply.manifest.data.add(value);
                case "--fact" -> apply.manifest.facts.add(value);
                default -> setting(name, value);
            }
        }

        /** A flag that a setting may also give, converted as picocli converts it. */
        private void setting(String name, String value) throws Declined {
            switch (name) {
                case "--facts" -> apply.manifest.factsFile = Path.of(value);
                case "--max-apply-depth" -> apply.manifest.maxApplyDepth = convert(value, Integer::valueOf);
                case "--sema" -> apply.run.sema = convert(value, Integer::valueOf);
                case "--output" -> apply.run.output = convert(value, RunFlags.Output::valueOf);
                case "--color" -> apply.run.color = convert(value, RunFlags.When::valueOf);
                case "--prefix" -> apply.run.prefix.dir = Path.of(value);
                default -> { // --wait-lock
                    double seconds = convert(value, Double::valueOf);
                    if (!(seconds >= 0) || Double.isInfinite(seconds)) throw new Declined();
                    apply.locking.waitSeconds(seconds);
                }
            }
        }

        /** The settings of the flags missing from the command line, over the flags' own defaults. */
        private void defaults() throws Declined {
            for (String name : List.of("--facts", "--sema", "--prefix", "--max-apply-depth", "--color", "--wait-lock")) {
                String value = given.contains(name) ? null : settings.value(Setting.BY_KEY.get(name.substring(2)));
                if (value != null) setting(name, value);
            }
        }

        /** What picocli or the command would refuse as a usage mistake (exit 64): theirs to say. */
        private void check() throws Declined {
            boolean exclusive = (apply.run.loudness.quiet && apply.run.loudness.verbose)
                    || (apply.run.prefix.tmp && given.contains("--prefix")) || (apply.noop && apply.healthCheckOnly);
            if (exclusive || apply.manifest.maxApplyDepth < 1 || apply.run.sema() < 1) throw new Declined();
            try {
                Assignments.parse(apply.manifest.data, "--data");
                Assignments.parse(apply.manifest.facts, "--fact");
            } catch (IllegalArgumentException e) {
                throw new Declined();
            }
        }

        private static <T> T convert(String value, Function<String, T> converter) throws Declined {
            try {
                return converter.apply(value);
            } catch (IllegalArgumentException e) { // NumberFormatException too
                throw new Declined();
            }
        }
    }
}
