package io.muster.cli;

import io.muster.engine.cache.GraphCache;
import io.muster.engine.facts.Facts;
import io.muster.engine.graph.Graph;
import io.muster.engine.report.JsonReport;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.TextReport;
import io.muster.engine.run.OneShotRun;
import io.muster.engine.run.RunOptions;
import io.muster.engine.run.StateLock;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What {@code apply}, {@code plan} and {@code check} share: compile, lock the state prefix when the run
 * changes things, run once, report, choose the exit code (a CCM manifest's shown and ended as {@code ccm apply}
 * does: {@link CcmRun}). A first SIGINT or SIGTERM starts nothing more: what runs finishes, the rest is reported
 * skipped, and the exit code is the signal's (130, 143).
 */
final class Runs {
    private Runs() {}

    /** The directory of the state prefix that holds the compiled-graph cache. */
    static final String GRAPH_CACHE = "graph-cache";

    /** How a run goes: noop, health checks only, or neither (never both). */
    enum Mode { APPLY, NOOP, HEALTH_CHECK_ONLY }

    /** @param locking how to take the state lock; only an {@code APPLY} run takes it */
    static int once(CommandSpec spec, ManifestOptions manifest, RunFlags flags, CacheFlag cache, LockFlags locking, Mode mode,
                    boolean diff, boolean detailed) throws InterruptedException {
        return once(spec, manifest, flags, cache, locking, mode, diff, detailed, graph -> graph);
    }

    /** What a run of a compiled graph runs instead: {@code plan}'s joins what its collect blocks would collect. */
    interface Joining {
        Graph join(Graph compiled) throws InterruptedException;
    }

    /** As the other {@code once}, running what {@code joining} makes of the compiled graph. */
    static int once(CommandSpec spec, ManifestOptions manifest, RunFlags flags, CacheFlag cache, LockFlags locking, Mode mode,
                    boolean diff, boolean detailed, Joining joining) throws InterruptedException {
        int sema = flags.sema(spec);
        return once(spec.commandLine().getOut(), spec.commandLine().getErr(), sema, manifest, flags, cache, locking, mode, diff, detailed,
                joining);
    }

    /**
     * As the other {@code once}, printing on {@code out} and {@code err}, with {@code sema} (at least 1) resources at once:
     * {@link PlainApply} runs this without picocli's model, its flags already known to be good.
     */
    static int once(PrintWriter out, PrintWriter err, int sema, ManifestOptions manifest, RunFlags flags, CacheFlag cache,
                    LockFlags locking, Mode mode, boolean diff, boolean detailed, Joining joining) throws InterruptedException {
        // a temporary prefix is new to this run: no graph is cached there, and none would be read again;
        // closed last: a miss writes its entry while the graph runs, and the run waits for it before it exits
        try (GraphCache graphs = flags.sharedPrefix() ? new GraphCache(flags.prefix().resolve(GRAPH_CACHE), BuildId.of()) : null) {
            return compileAndRun(out, err, sema, manifest, graphs, flags, cache, locking, mode, diff, detailed, joining);
        }
    }

    @SuppressWarnings("try") // the lock is held, the logs go to stdout, while the run runs: never called
    private static int compileAndRun(PrintWriter out, PrintWriter err, int sema, ManifestOptions manifest, GraphCache graphs,
                                     RunFlags flags, CacheFlag cache, LockFlags locking, Mode mode, boolean diff, boolean detailed,
                                     Joining joining)
            throws InterruptedException {
        Path prefix = flags.prefix();
        Optional<GraphCache.Compiled> compiled = manifest.compile(err, graphs, cache.off);
        if (compiled.isEmpty()) return 1;
        Graph graph = joining.join(compiled.get().graph());
        boolean json = flags.output == RunFlags.Output.json;
        RunOptions options = new RunOptions(Facts.hostname(), mode == Mode.NOOP, sema, prefix, diff, manifest.debug,
                mode == Mode.HEALTH_CHECK_ONLY);
        TextReport text = new TextReport(out, diff, flags.colors(), flags.verbosity());
        Progress progress = flags.progress(err);
        boolean ccm = CcmRun.isCcm(graph);
        Consumer<ResourceReport> shown = ccm ? new CcmConsole(graph, out, text::resource) : text::resource;
        OneShotRun run = new OneShotRun(graph, options, json ? r -> {} : progress.before(shown));
        run.activity(progress);
        // the handlers stay until the report is printed: a second signal meanwhile exits at once
        try (Signals signals = new Signals(signal -> run.stop("muster was stopped (" + signal + ")"));
             StateLock lock = mode == Mode.APPLY && flags.sharedPrefix() ? locking.take(prefix, signals, err) : null;
             LogSetup.Restore logs = ccm && !json ? LogSetup.onStdout() : null) {
            Report report;
            try (progress) {
                report = run.run().withGraphCache(compiled.get().outcome().label());
            }
            if (json) {
                out.print(JsonReport.render(report));
                out.flush();
            } else {
                text.summary(report);
            }
            if (signals.caught() != null) return signals.exitCode();
            if (detailed) return report.detailedExitCode();
            return ccm ? CcmRun.exitCode(report, err) : report.exitCode();
        } catch (LockFlags.NotTaken e) {
            err.println("muster: " + e.getMessage());
            return e.exitCode;
        }
    }
}
