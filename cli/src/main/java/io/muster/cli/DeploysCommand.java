package io.muster.cli;

import io.muster.coordinator.deploy.DeployHistory;
import io.muster.coordinator.deploy.DeploysJson;
import io.muster.engine.util.Json;
import io.muster.proto.fleet.Deploy;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "deploys", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Show the deploys, oldest first: id, time (UTC), who, message; the current one is marked *.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:shown", "1:etcd unreachable", "64:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster deploys                  the history, * marking the current one",
                "  muster deploys --output json    the same for machines"})
final class DeploysCommand implements Callable<Integer> {
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
            DeployHistory history = new DeployHistory(etcd);
            OptionalLong current = history.current();
            List<Deploy> deploys = history.list();
            if (output.json()) {
                out.print(Json.pretty(DeploysJson.document(current, deploys)) + "\n");
            } else if (deploys.isEmpty()) {
                out.println("no deploys");
            } else {
                for (Deploy d : deploys) {
                    boolean isCurrent = current.isPresent() && current.getAsLong() == d.getId();
                    out.println((isCurrent ? "* " : "  ") + d.getId() + "  " + Instant.ofEpochMilli(d.getCreated()) + "  " + d.getWho()
                            + (d.getMessage().isEmpty() ? "" : "  " + d.getMessage()));
                }
            }
            out.flush();
            return 0;
        });
    }
}
