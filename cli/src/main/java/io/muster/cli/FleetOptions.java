package io.muster.cli;

import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --etcd}, {@code --namespace} and {@code --connect-timeout}: where every fleet command finds the fleet. */
final class FleetOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--etcd", paramLabel = "URL[,URL…]",
            description = "etcd client URLs (default: $MUSTER_ETCD, else muster.conf's etcd, else " + EtcdOptions.DEFAULT_ENDPOINT + ").")
    String endpoints;

    @Option(names = "--namespace", paramLabel = "PREFIX", description = "Prefix of every key muster keeps in etcd (default: ${DEFAULT-VALUE}).",
            defaultValue = EtcdOptions.DEFAULT_NAMESPACE)
    String namespace;

    @Option(names = "--connect-timeout", paramLabel = "S",
            description = "Give up on an etcd that does not answer within S seconds (default: ${DEFAULT-VALUE}).", defaultValue = "5")
    double connectTimeout;

    /** {@code host}, a --host value, when it is a host name the fleet accepts; else a usage error naming the flag. */
    static String checkHost(CommandSpec spec, String host) {
        try {
            return Keys.checkHost(host);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--host: " + e.getMessage());
        }
    }

    /** The options as given; a bad value is a usage error naming its flag. */
    EtcdOptions etcd() {
        if (!(connectTimeout > 0) || Double.isInfinite(connectTimeout)) {
            throw new ParameterException(spec.commandLine(), "--connect-timeout must be above 0 seconds, got " + connectTimeout);
        }
        try {
            String urls = endpoints != null ? endpoints : EtcdOptions.defaultEndpoints();
            return EtcdOptions.of(urls, namespace, Duration.ofMillis(Math.round(connectTimeout * 1000)));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
