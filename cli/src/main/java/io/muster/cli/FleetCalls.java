package io.muster.cli;

import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.deploy.DeployException;
import io.muster.coordinator.etcd.Stored;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What the fleet commands share: connect to etcd, run, close; an unreachable etcd, a refused deploy or a key
 * muster did not write is one line on stderr and exit 1, within --connect-timeout, never a stack trace.
 */
final class FleetCalls {
    private FleetCalls() {}

    interface Body {
        int run(Etcd etcd) throws EtcdUnreachableException, DeployException, InterruptedException;
    }

    static int run(CommandSpec spec, FleetOptions fleet, Body body) throws InterruptedException {
        return run(spec, fleet.etcd(), body);
    }

    static int run(CommandSpec spec, EtcdOptions options, Body body) throws InterruptedException {
        try (Etcd etcd = Etcd.connect(options)) {
            return body.run(etcd);
        } catch (EtcdUnreachableException | DeployException | Stored.CorruptKeyException e) {
            spec.commandLine().getErr().println("muster: " + e.getMessage());
            return 1;
        }
    }
}
