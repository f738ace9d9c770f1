package io.muster.cli;

import io.muster.coordinator.status.ExportsOutput;
import io.muster.coordinator.status.FleetExports;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "exports", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Show the fleet's exported resources: a line per export (kind, exporter, name, who may collect it, tags, "
                + "which hosts collected it), with each host that rejected it and why."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:shown", "1:etcd unreachable", "64:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster exports                           every export",
                "  muster exports --kind file --output json the file exports, as JSON"})
final class ExportsCommand implements Callable<Integer> {
    @Option(names = "--kind", paramLabel = "KIND", description = "Only exports of this kind.")
    String kind;

    @Mixin
    OutputFlag output;

    @Mixin
    FleetOptions fleet;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        return FleetCalls.run(spec, fleet, etcd -> {
            FleetExports exports = FleetExports.read(etcd, kind);
            out.print(output.json() ? ExportsOutput.json(exports) : ExportsOutput.text(exports));
            out.flush();
            return 0;
        });
    }
}
