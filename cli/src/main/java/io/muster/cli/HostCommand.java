package io.muster.cli;

import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.pki.Credentials;
import io.muster.agent.pki.PemFiles;
import io.muster.coordinator.auth.FleetAuth;
import io.muster.coordinator.auth.FleetPki;
import io.muster.engine.resource.Kinds;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "host", mixinStandardHelpOptions = true,
        description = {"Let a host into a fleet whose etcd wants client certificates, renew its certificate, or revoke it: run where "
                + "the coordinator keeps the fleet's CA (its --pki), as etcd's root."},
        subcommands = {HostCommand.Add.class, HostCommand.Rotate.class, HostCommand.Remove.class})
final class HostCommand {
    /**
     * A host's subcommand, run as etcd's root: by --etcd-cert when given, else by --pki's root certificate. An
     * http:// etcd is a usage error: the fleet's certificates need TLS.
     */
    abstract static class AsRoot implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "The host's name, as its agent's --host.")
        String host;

        @Option(names = "--pki", paramLabel = "DIR", description = "The fleet's CA and certificates, as the coordinator made them "
                + "(default: the coordinator's PREFIX/pki).")
        Path pki;

        @Mixin
        FleetOptions fleet;

        @Spec
        CommandSpec spec;

        abstract int run(Etcd root, EtcdOptions options, FleetPki fleetPki) throws EtcdUnreachableException, InterruptedException;

        @Override
        public Integer call() throws InterruptedException {
            FleetOptions.checkHost(spec, "NAME", host);
            EtcdOptions options = fleet.etcd();
            if (options.tls() == null) throw new ParameterException(spec.commandLine(), "--etcd: expected an https:// URL (the fleet's certificates need TLS)");
            Path dir = pki != null ? pki.toAbsolutePath() : RunFlags.defaultPrefix().resolve("pki");
            FleetPki fleetPki;
            try {
                if (!FleetPki.hasCa(dir)) throw new IOException("no fleet CA in " + dir + " (is --pki the coordinator's?)");
                fleetPki = FleetPki.openOrCreate(dir, options.endpoints());
            } catch (IOException e) {
                spec.commandLine().getErr().println("muster: " + e.getMessage());
                return 1;
            }
            EtcdOptions root = fleet.hasClientCertificate() ? options : options.withTls(fleetPki.tls(FleetPki.ROOT));
            return FleetCalls.run(spec, root, etcd -> run(etcd, options, fleetPki));
        }
    }

    /** A subcommand that hands the host a new certificate: printed, or written to --output. */
    abstract static class Issuing extends AsRoot {
        @Option(names = "--output", paramLabel = "DIR", description = "Write ca.crt, NAME.crt and NAME.key there (0600) instead of printing them.")
        Path output;

        /** Prints {@code credentials} with the CA's certificate, or writes them to --output, and how the agent joins with them. */
        int hand(Credentials credentials, EtcdOptions options, FleetPki fleetPki, String what) {
            PrintWriter out = spec.commandLine().getOut();
            String ca = PemFiles.pem(fleetPki.caCertificate());
            if (output == null) {
                out.print("# ca.crt\n" + ca + "# " + host + ".crt\n" + PemFiles.pem(credentials.certificate())
                        + "# " + host + ".key\n" + PemFiles.pem(credentials.key()));
                out.println("# muster agent --host " + host + " --etcd " + options.describe()
                        + " --etcd-cert " + host + ".crt --etcd-key " + host + ".key --etcd-ca ca.crt");
            } else {
                try {
                    PemFiles.writeSecret(output.resolve("ca.crt"), ca);
                    credentials.write(output, host);
                } catch (IOException e) {
                    spec.commandLine().getErr().println("muster: cannot write " + output + ": " + e.getMessage());
                    return 1;
                }
                EtcdTls files = new EtcdTls(output.resolve(host + ".crt").toAbsolutePath(), output.resolve(host + ".key").toAbsolutePath(),
                        output.resolve("ca.crt").toAbsolutePath());
                out.println("host " + host + " " + what + "; on it, run: muster agent --host " + host + " --etcd " + options.describe() + " " + files.flags());
            }
            out.flush();
            return 0;
        }

        /** The certificates' records in --pki could not be read or written: said in one line. */
        int failed(FleetPki fleetPki, IOException e) {
            spec.commandLine().getErr().println("muster: cannot record the certificate in " + fleetPki.dir() + ": " + e.getMessage());
            return 1;
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Make NAME's etcd user and role (it may write its own keys and exports only) and a certificate for its agent; "
                    + "print the CA certificate, its certificate and key, or write them to --output."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:added", "1:etcd unreachable or refused, or no CA in --pki", "64:usage error"},
            footerHeading = "%nExamples:%n",
            footer = {"  muster host add web7 --etcd https://10.0.0.5:2379 --output /tmp/web7   then copy /tmp/web7 to web7"})
    static final class Add extends Issuing {
        @Override
        int run(Etcd etcd, EtcdOptions options, FleetPki fleetPki) throws EtcdUnreachableException {
            new FleetAuth(etcd).addHost(host, Kinds.installed().names());
            try {
                return hand(fleetPki.issueHost(host), options, fleetPki, "added");
            } catch (IOException e) {
                return failed(fleetPki, e);
            }
        }
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true,
            description = {"Give NAME's agent a new certificate and revoke every one it had: etcd (run with --client-crl-file PKI/crl.pem, "
                    + "as the coordinator says) refuses them at their next connection. Its user and role stay (made again if missing); "
                    + "print the new certificate, or write it to --output, as add does."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:rotated", "1:etcd unreachable or refused, or no CA in --pki", "64:usage error"},
            footerHeading = "%nExamples:%n",
            footer = {"  muster host rotate web7 --etcd https://10.0.0.5:2379 --output /tmp/web7   then copy /tmp/web7 to web7 and restart its agent"})
    static final class Rotate extends Issuing {
        @Override
        int run(Etcd etcd, EtcdOptions options, FleetPki fleetPki) throws EtcdUnreachableException {
            new FleetAuth(etcd).addHost(host, Kinds.installed().names());
            FleetPki.Rotated rotated;
            try {
                rotated = fleetPki.rotateHost(host);
            } catch (IOException e) {
                return failed(fleetPki, e);
            }
            return hand(rotated.credentials(), options, fleetPki, "has a new certificate (" + rotated.revoked() + " revoked)");
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = {"Delete NAME's etcd user and role and revoke every certificate issued to it (etcd refuses them at "
                    + "their next connection, also when NAME is added again), then end what it holds: its registration lease is revoked "
                    + "and its exports deleted (they leave every collector's graph at once). As root, where the CA is (--pki)."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:removed", "1:no such host, etcd unreachable or refused, or no CA in --pki", "64:usage error"})
    static final class Remove extends AsRoot {
        @Override
        int run(Etcd etcd, EtcdOptions options, FleetPki fleetPki) throws EtcdUnreachableException {
            int revoked;
            try {
                revoked = fleetPki.revokeAllBut(host, null); // first: a certificate of a name added again must not work again
            } catch (IOException e) {
                spec.commandLine().getErr().println("muster: " + e.getMessage());
                return 1;
            }
            if (new FleetAuth(etcd).removeHost(host)) {
                spec.commandLine().getOut().println("host " + host + " removed: " + revoked + " certificate" + (revoked == 1 ? "" : "s")
                        + " revoked, its registration and exports withdrawn");
                return 0;
            }
            spec.commandLine().getErr().println("muster: no host " + host + " in etcd's users");
            return 1;
        }
    }
}
