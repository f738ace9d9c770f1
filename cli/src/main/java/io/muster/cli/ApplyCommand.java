package io.muster.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "apply", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Apply a manifest once, in dependency order, then exit.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success (with --detailed-exitcodes: no changes)", "1:a resource failed (a CCM manifest: the run stopped, as ccm apply exits), or the manifest is invalid",
                "2:changes were made (--detailed-exitcodes)", "4:failures (--detailed-exitcodes)", "6:changes and failures (--detailed-exitcodes)",
                "64:usage error", "75:another run holds the state lock (see --wait-lock)", "130, 143:stopped by SIGINT, SIGTERM"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster apply site.yaml                        converge this host once",
                "  muster apply site.yaml --noop --diff          show what would change",
                "  muster apply site.yaml --detailed-exitcodes   exit 2 when something changed",
                "  muster apply site.yaml --data env=prod --fact os.family=debian%n"})
final class ApplyCommand implements Callable<Integer> {
    @Mixin
    ManifestOptions manifest;

    @Mixin
    RunFlags run;

    @Mixin
    CacheFlag cache;

    @Mixin
    LockFlags locking;

    @Option(names = "--noop", description = "Change nothing; report what would change.")
    boolean noop;

    @Option(names = "--health-check-only", description = "Run only the resources' health checks, changing nothing (as muster check).")
    boolean healthCheckOnly;

    @Option(names = "--diff", description = "Show attribute changes and unified diffs of content.")
    boolean diff;

    @Option(names = "--detailed-exitcodes", description = "0 no changes, 2 changes, 4 failures, 6 both.")
    boolean detailed;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (noop && healthCheckOnly) {
            throw new ParameterException(spec.commandLine(),
                    "--noop and --health-check-only cannot be combined: a health-check run changes nothing already");
        }
        return run(spec.commandLine().getOut(), spec.commandLine().getErr(), run.sema(spec));
    }

    /** The run, its flags known to be good: what {@link #call} runs, and {@link PlainApply} without picocli. */
    int run(PrintWriter out, PrintWriter err, int sema) throws InterruptedException {
        Runs.Mode mode = healthCheckOnly ? Runs.Mode.HEALTH_CHECK_ONLY : noop ? Runs.Mode.NOOP : Runs.Mode.APPLY;
        return Runs.once(out, err, sema, manifest, run, cache, locking, mode, diff || noop, detailed, graph -> graph);
    }
}
