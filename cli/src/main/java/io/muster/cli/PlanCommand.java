package io.muster.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Show what apply would do, with diffs, changing nothing.",
        exitCodeListHeading = "%nExit codes (always detailed):%n",
        exitCodeList = {"0:nothing to do", "1:the manifest is invalid", "2:changes pending", "4:errors", "6:changes pending and errors", "64:usage error",
                "130, 143:stopped by SIGINT, SIGTERM"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster plan site.yaml                         what apply would change (diffs)",
                "  muster plan site.yaml --output json           the same as one JSON document",
                "  muster plan lb.yaml --etcd http://etcd:2379   with what its collect blocks would collect now%n"})
final class PlanCommand implements Callable<Integer> {
    @Mixin
    ManifestOptions manifest;

    @Mixin
    RunFlags run;

    @Mixin
    CacheFlag cache;

    /** Read only with --etcd or $MUSTER_ETCD: the exports a manifest's collect blocks would collect. */
    @Mixin
    FleetOptions fleet;

    @Option(names = "--host", paramLabel = "NAME", description = "The host whose collect blocks are planned, as its agent's "
            + "--host: its own exports are not collected (default: the fqdn fact).")
    String host;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (host != null) FleetOptions.checkHost(spec, host);
        return Runs.once(spec, manifest, run, cache, null, Runs.Mode.NOOP, true, true, // changes nothing: takes no lock
                graph -> PlannedCollection.join(graph, fleet, host != null ? host : manifest.hostName(), spec.commandLine().getErr()));
    }
}
