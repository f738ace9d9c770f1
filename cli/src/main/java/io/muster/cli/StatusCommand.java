package io.muster.cli;

import io.muster.coordinator.status.FleetStatus;
import io.muster.coordinator.status.StatusJson;
import io.muster.coordinator.status.StatusText;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Show the fleet: the current deploy, and a line per host (alive, deploy applied, converged, changed and "
                + "failed counts, age of its last report) with its failed resources and errors."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:shown", "1:etcd unreachable, or no such host", "64:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster status                            a line per host",
                "  muster status --host web1 --output json  one host, as JSON"})
final class StatusCommand implements Callable<Integer> {
    @Option(names = "--host", paramLabel = "NAME", description = "Only this host.")
    String host;

    @Mixin
    OutputFlag output;

    @Mixin
    FleetOptions fleet;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (host != null) FleetOptions.checkHost(spec, host);
        PrintWriter out = spec.commandLine().getOut();
        return FleetCalls.run(spec, fleet, etcd -> {
            FleetStatus status = FleetStatus.read(etcd, host);
            if (host != null && status.hosts().isEmpty()) {
                spec.commandLine().getErr().println("muster: no host " + host + " in the fleet");
                return 1;
            }
            out.print(output.json() ? StatusJson.render(status) : StatusText.render(status, Instant.now()));
            out.flush();
            return 0;
        });
    }
}
