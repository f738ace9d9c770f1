package io.muster.cli;

import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.Keys;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --etcd}, {@code --namespace}, {@code --connect-timeout} and the TLS files: where every fleet command finds
 * the fleet, and how it proves who it is.
 */
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

    @Option(names = "--etcd-cert", paramLabel = "FILE", description = "Client certificate (PEM) for an https:// etcd; its common name is the etcd user.")
    Path etcdCert;

    @Option(names = "--etcd-key", paramLabel = "FILE", description = "The private key (PEM, PKCS#8) of --etcd-cert.")
    Path etcdKey;

    @Option(names = "--etcd-ca", paramLabel = "FILE", description = "CA certificate (PEM) etcd's certificate must be signed by (default: the JDK's CAs).")
    Path etcdCa;

    /** True when the TLS files are given: the command acts as the user they name, and sets nothing up. */
    boolean hasClientCertificate() {
        return etcdCert != null;
    }

    /** {@code host}, a --host value, when it is a host name the fleet accepts; else a usage error naming the flag. */
    static String checkHost(CommandSpec spec, String host) {
        return checkHost(spec, "--host", host);
    }

    /** {@code host}, given as {@code what} (a flag, or a parameter's label), when it is a host name the fleet accepts. */
    static String checkHost(CommandSpec spec, String what, String host) {
        try {
            return Keys.checkHost(host);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), what + ": " + e.getMessage());
        }
    }

    /** The options as given; a bad value is a usage error naming its flag. */
    EtcdOptions etcd() {
        return etcd(EtcdOptions.defaultEndpoints());
    }

    /** The options as given, {@code defaultEndpoints} when there is no --etcd. */
    EtcdOptions etcd(String defaultEndpoints) {
        if (!(connectTimeout > 0) || Double.isInfinite(connectTimeout)) {
            throw new ParameterException(spec.commandLine(), "--connect-timeout must be above 0 seconds, got " + connectTimeout);
        }
        try {
            String urls = endpoints != null ? endpoints : defaultEndpoints;
            EtcdOptions options = EtcdOptions.of(urls, namespace, Duration.ofMillis(Math.round(connectTimeout * 1000)));
            if (etcdCert == null && etcdKey == null && etcdCa == null) return options;
            EtcdTls tls = new EtcdTls(etcdCert, etcdKey, etcdCa);
            tls.sslContext(); // a missing or unusable file is a usage error now, not a failure at the first call
            return options.withTls(tls);
        } catch (java.io.IOException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
