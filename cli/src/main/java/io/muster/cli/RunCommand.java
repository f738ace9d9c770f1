package io.muster.cli;

import io.muster.engine.facts.Facts;
import io.muster.engine.graph.Graph;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.TextReport;
import io.muster.engine.run.LiveReport;
import io.muster.engine.run.LiveRun;
import io.muster.engine.run.ManifestReloader;
import io.muster.engine.run.RunOptions;
import io.muster.engine.run.StateLock;
import io.muster.engine.run.StatusFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Keep a manifest applied: every resource is watched and repaired the moment it drifts, and the "
                + "manifest is reloaded when it changes.", "Runs until converged (--converged-timeout), --max-runtime, or SIGINT/SIGTERM; SIGHUP reloads the manifest "
                + "(and the --facts file and environment it is compiled with)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:converged or --max-runtime reached with no resource failing, or stopped by a signal",
                "1:the manifest is invalid, or it ended (converged, --max-runtime) with resources still failing",
                "2:changes were made (--detailed-exitcodes)", "4:resources still failing (--detailed-exitcodes)",
                "6:changes and failures (--detailed-exitcodes)", "64:usage error",
                "75:another run holds the state lock (see --wait-lock)", "130, 143:a second SIGINT, SIGTERM (or one while waiting for the lock)"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster run site.yaml                          keep this host converged",
                "  muster run site.yaml --converged-timeout 30   exit once quiet for 30 s",
                "  kill -HUP PID                                 reload the manifest and its --facts file",
                "  muster run site.yaml --prometheus             serve /metrics on :9233 too%n"})
final class RunCommand implements Callable<Integer> {
    @Mixin
    ManifestOptions manifest;

    @Mixin
    RunFlags run;

    @Mixin
    LockFlags locking;

    @Option(names = "--noop", description = "Change nothing; report what would change, as it drifts.")
    boolean noop;

    /**
     * How long nothing may change for a run that keeps running (--converged-timeout -1) to count as converged,
     * in its status file, metrics and summary: with no quiet period at all, a run repaired every few
     * moments by a drift that never stops would count as converged between two repairs.
     */
    private static final double DEFAULT_QUIET_SECONDS = 1;

    @Option(names = "--converged-timeout", paramLabel = "S",
            description = "Exit once nothing changed or failed for S seconds (-1, the default: keep running).", defaultValue = "-1")
    double convergedTimeout;

    @Option(names = "--max-runtime", paramLabel = "S", description = "Exit after S seconds (default: no limit).")
    Double maxRuntime;

    @Option(names = "--status-file", paramLabel = "FILE", description = "Append 'converged' or 'not converged' to FILE at each transition.")
    Path statusFile;

    @Option(names = "--detailed-exitcodes",
            description = "As the run ends by itself: 0 no changes, 2 changes, 4 resources still failing, 6 both.")
    boolean detailed;

    @Mixin
    PrometheusFlags prometheus;

    @Spec
    CommandSpec spec;

    @Override
    @SuppressWarnings("try") // the lock is held while the run runs, never called
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        int sema = run.sema(spec);
        if (maxRuntime != null && maxRuntime <= 0) throw new ParameterException(spec.commandLine(), "--max-runtime must be above 0, got " + maxRuntime);
        if (convergedTimeout < 0 && convergedTimeout != -1) {
            throw new ParameterException(spec.commandLine(), "--converged-timeout must be 0 or more, or -1 to keep running; got " + convergedTimeout);
        }
        prometheus.serve(); // a bad address is a usage error before anything runs
        Optional<Graph> compiled = manifest.compile(err);
        if (compiled.isEmpty()) return 1;
        Graph graph = compiled.get();
        RunOptions options = new RunOptions(Facts.hostname(), noop, sema, run.prefix(), false, manifest.debug);
        CountDownLatch done = new CountDownLatch(1);
        // the handlers stay until the applies under way finished: a second signal while waiting for them exits at once
        try (Signals signals = new Signals(signal -> done.countDown());
             StateLock lock = !noop && run.sharedPrefix() ? locking.take(options.prefix(), signals, err) : null) {
            StatusFile status;
            try {
                status = statusFile == null ? null : new StatusFile(statusFile); // emptied: not before this run may start
            } catch (IOException e) {
                err.println("muster: cannot write the status file: " + e.getMessage());
                return 1;
            }
            Metrics metrics = new Metrics();
            Metrics.Endpoint server;
            try {
                server = prometheus.start(metrics);
            } catch (IOException e) { // the port is taken, or the address is not this host's
                err.println("muster: cannot serve metrics on " + prometheus.listen + ": " + e.getMessage());
                return 1;
            }
            LiveReport report;
            try (server) {
                report = runUntilDone(graph, options, status, metrics, done);
            }
            if (signals.caught() != null) return 0; // asked to stop, as a service manager does: not a failure of the run
            return detailed ? report.detailedExitCode() : report.exitCode();
        } catch (LockFlags.NotTaken e) {
            err.println("muster: " + e.getMessage());
            return e.exitCode;
        }
    }

    /** Runs the graph until {@code done} (or --max-runtime), then prints the report and returns it. */
    @SuppressWarnings("try") // SIGHUP is handled while the run runs, never called
    private LiveReport runUntilDone(Graph graph, RunOptions options, StatusFile status, Metrics metrics, CountDownLatch done) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean json = run.output == RunFlags.Output.json;
        TextReport text = new TextReport(out, false, run.colors(), run.verbosity());
        long start = System.nanoTime();
        Progress progress = run.progress(err);
        LiveRun live = new LiveRun(options, convergedTimeout >= 0 ? convergedTimeout : DEFAULT_QUIET_SECONDS, metrics, json ? r -> {} : progress.before(text::resource), converged -> {
            if (status != null) status.write(converged);
            if (converged && convergedTimeout >= 0) done.countDown();
        });
        boolean converged;
        try (progress) {
            live.activity(progress);
            live.swap(graph);
            try (ManifestReloader reloader = new ManifestReloader(live, graph, () -> manifest.compile(err));
                 Hangup hangup = new Hangup(reloader::reload)) {
                if (maxRuntime == null) done.await();
                else done.await(Math.round(maxRuntime * 1000), TimeUnit.MILLISECONDS);
            }
            converged = live.converged(); // as the run ends, not as it stops
        } finally {
            live.close();
        }
        LiveReport report = new LiveReport(options.hostname(), noop, converged, (System.nanoTime() - start) / 1_000_000, live.stats(),
                live.reversals());
        if (json) out.print(report.json());
        else if (run.verbosity() != TextReport.Verbosity.QUIET) report.text(out);
        out.flush();
        return report;
    }
}
