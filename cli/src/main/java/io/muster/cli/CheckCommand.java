package io.muster.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run only the resources' health checks, changing nothing, and report each result.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every health check is OK", "1:a health check is not OK, or the manifest is invalid", "64:usage error",
                "130, 143:stopped by SIGINT, SIGTERM"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster check site.yaml                        run only the health checks",
                "  muster check site.yaml --output json%n"})
final class CheckCommand implements Callable<Integer> {
    @Mixin
    ManifestOptions manifest;

    @Mixin
    RunFlags run;

    @Mixin
    CacheFlag cache;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        return Runs.once(spec, manifest, run, cache, null, Runs.Mode.HEALTH_CHECK_ONLY, false, false); // changes nothing: takes no lock
    }
}
