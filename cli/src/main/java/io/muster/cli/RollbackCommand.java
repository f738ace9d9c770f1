package io.muster.cli;

import io.muster.coordinator.deploy.DeployHistory;
import io.muster.coordinator.rollout.RolloutCommands;
import java.time.Clock;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "rollback", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Make an earlier deploy current again; hosts converge back to it (resources that leave their graphs "
                + "are reversed when meta.reverse is set).",
                "Without --to: the deploy before the current one (the highest id below it), so rolling back twice goes back two; "
                        + "while the current deploy goes out in waves (running or stalled), the deploy the hosts not reached kept. "
                        + "The ids of later deploys keep rising: a deploy after a rollback gets the next unused id."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:rolled back (or N was current already)", "1:no such deploy, none to go back to, or etcd unreachable", "64:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster rollback           the deploy before the current one becomes current",
                "  muster rollback --to 3    deploy 3 becomes current"})
final class RollbackCommand implements Callable<Integer> {
    @Option(names = "--to", paramLabel = "N", description = "Deploy N becomes current.")
    Long to;

    @Mixin
    FleetOptions fleet;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (to != null && to < 1) throw new ParameterException(spec.commandLine(), "--to: deploy ids start at 1, got " + to);
        return FleetCalls.run(spec, fleet, etcd -> {
            DeployHistory.Rollback done = new RolloutCommands(etcd, Clock.systemUTC()).rollback(to == null ? OptionalLong.empty() : OptionalLong.of(to));
            spec.commandLine().getOut().println(done.from() == done.to() ? "deploy " + done.to() + " is current already"
                    : "rolled back from deploy " + done.from() + " to " + done.to());
            return 0;
        });
    }
}
