package io.muster.cli;

import io.muster.engine.facts.Facts;
import io.muster.engine.graph.Graph;
import io.muster.engine.report.JsonReport;
import io.muster.engine.report.Report;
import io.muster.engine.report.TextReport;
import io.muster.engine.run.OneShotRun;
import io.muster.engine.run.RunOptions;
import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;

/** What {@code apply}, {@code plan} and {@code check} share: compile, run once, report, choose the exit code. */
final class Runs {
    private Runs() {}

    /** How a run goes: noop, health checks only, or neither (never both). */
    enum Mode { APPLY, NOOP, HEALTH_CHECK_ONLY }

    static int once(CommandSpec spec, ManifestOptions manifest, RunFlags flags, Mode mode, boolean diff, boolean detailed)
            throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int sema = flags.sema(spec);
        Graph graph = manifest.compile(err);
        if (graph == null) return 1;
        boolean json = flags.output == RunFlags.Output.json;
        RunOptions options = new RunOptions(Facts.hostname(), mode == Mode.NOOP, sema, flags.prefix(), diff && !json, manifest.debug,
                mode == Mode.HEALTH_CHECK_ONLY);
        TextReport text = new TextReport(out, diff);
        Report report = new OneShotRun(graph, options, json ? r -> {} : text::resource).run();
        if (json) {
            out.print(JsonReport.render(report));
            out.flush();
        } else {
            text.summary(report);
        }
        return detailed ? report.detailedExitCode() : report.exitCode();
    }
}
