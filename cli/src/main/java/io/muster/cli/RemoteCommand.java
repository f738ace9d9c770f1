package io.muster.cli;

import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.remote.RemoteResult;
import io.muster.remote.RemoteRun;
import io.muster.remote.ResultJson;
import io.muster.remote.ResultTable;
import io.muster.remote.RuntimeLocator;
import io.muster.remote.ssh.Destination;
import io.muster.remote.ssh.SshSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "remote", mixinStandardHelpOptions = true, sortOptions = false,
        customSynopsis = "muster remote [OPTIONS] DEST… -- MANIFEST",
        description = {"Converge hosts that run no agent and have no Java, over SSH alone.",
                "For each DEST ([NAME=][USER@]HOST[:PORT]; its name in the fleet is NAME, else HOST[:PORT] as written), at most "
                        + "--cconns at once: upload muster's jar and its Java runtime into ~/.cache/muster on the host (once: a "
                        + "host that has them already is not sent them again), open a tunnel from the host's loopback to this "
                        + "run's etcd, and run muster's agent there until the host converges, its lines shown prefixed with its "
                        + "name. MANIFEST's directory is the bundle (as for deploy); each host's graph is compiled with the facts "
                        + "its agent publishes (facts.host is its name).",
                "Without --etcd the run starts a private etcd (the etcd binary on PATH, Debian package etcd-server), gone "
                        + "afterwards; with --etcd it works under NAMESPACEremote/RUN/ there, deleted afterwards, so a fleet's "
                        + "own deploys are never touched. Nothing of muster keeps running on a host afterwards.",
                "The hosts' agents reach etcd over TLS, each with a client certificate of its own made for the run (its etcd "
                        + "user may write that host's keys only), kept in a private directory on the host while its agent runs: "
                        + "the private etcd's CA is the run's own; for an https:// --etcd the fleet's CA in --pki signs them.",
                "Logins: -i keys, the ssh-agent ($SSH_AUTH_SOCK), ~/.ssh/config (HostName, User, Port, IdentityFile), a "
                        + "password only with --allow-interactive. Host keys must be in ~/.ssh/known_hosts (or --known-hosts); "
                        + "--connect-timeout also bounds opening each SSH connection.",
                "At the end a line per host, in the order given: converged, failed or unreachable, changes, failures, time, "
                        + "and whether muster was uploaded or found in the cache."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every host converged with no failed resource",
                "1:a host failed or was unreachable, the manifest is invalid, or the run could not start", "64:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster remote web1.example.com root@db1 -- site.yaml       two hosts",
                "  muster remote -i ~/.ssh/deploy web=admin@10.0.0.5:2222 -- site.yaml",
                "  muster remote --cconns 32 --output json $(cat hosts) -- site/site.yaml"})
final class RemoteCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DEST", description = "The hosts, then -- and the manifest (a file, or a directory with site.yaml).")
    List<String> arguments;

    @Option(names = {"-i", "--identity"}, paramLabel = "FILE", description = "A private key to log in with (repeatable).")
    List<Path> identities = new ArrayList<>();

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "The host keys trusted (default: ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(names = "--accept-new-host-keys", description = "Trust and add the key of a host not in known_hosts (a changed key is still refused).")
    boolean acceptNewHostKeys;

    @Option(names = "--allow-interactive", description = "Ask for a password on the terminal when no key is accepted.")
    boolean allowInteractive;

    @Option(names = "--cconns", paramLabel = "N", defaultValue = "8", description = "Hosts worked on at once (default: ${DEFAULT-VALUE}).")
    int cconns;

    @Option(names = "--no-caching", description = "Remove muster from each host's cache afterwards.")
    boolean noCaching;

    @Option(names = "--converged-timeout", paramLabel = "S", defaultValue = "300",
            description = "How long a host's graph may take to converge (default: ${DEFAULT-VALUE}).")
    double convergedTimeout;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "2",
            description = "How often a host whose connection dropped is tried again (default: ${DEFAULT-VALUE}).")
    int retries;

    @Option(names = "--runtime", paramLabel = "DIR", description = "The Java runtime to upload (default: $MUSTER_RUNTIME, else runtime/ "
            + "beside muster's jar, else the one muster runs on when it is muster's).")
    Path runtime;

    @Option(names = "--prefix", paramLabel = "DIR", description = "Where muster keeps state on the hosts (default: the agent's default "
            + "for the login: /var/lib/muster as root, else ~/.local/state/muster; a relative DIR is under the login's home; %%h in DIR "
            + "is the host's name).")
    String prefix;

    @Option(names = "--pki", paramLabel = "DIR", description = "With an https:// --etcd: the fleet's CA and certificates, as the "
            + "coordinator made them, to sign the hosts' certificates and to act as etcd's root unless --etcd-cert is given "
            + "(default: the coordinator's PREFIX/pki).")
    Path pki;

    @Mixin
    OutputFlag output;

    @Mixin
    FleetOptions fleet;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Destination> hosts = destinations();
        Path manifest = Path.of(arguments.getLast());
        if (!(convergedTimeout > 0) || Double.isInfinite(convergedTimeout)) {
            throw new ParameterException(spec.commandLine(), "--converged-timeout must be above 0 seconds, got " + convergedTimeout);
        }
        EtcdOptions etcd = fleet.etcd();
        RemoteRun.Options options;
        try {
            Path fleetPki = pki != null ? pki.toAbsolutePath() : RunFlags.defaultPrefix().resolve("pki");
            options = new RemoteRun.Options(fleet.endpoints != null ? etcd : null, fleetPki, etcd.connectTimeout(),
                    Duration.ofMillis(Math.round(convergedTimeout * 1000)), prefix, cconns, retries, !noCaching);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Path home = Path.of(System.getProperty("user.home"));
        SshSettings ssh = new SshSettings(identities, knownHosts != null ? knownHosts : home.resolve(".ssh/known_hosts"),
                acceptNewHostKeys, allowInteractive, home.resolve(".ssh/config"), etcd.connectTimeout());
        Path jar;
        Path java;
        try {
            jar = RuntimeLocator.jar(System.getProperty("java.class.path"));
            java = RuntimeLocator.runtime(runtime, System.getenv("MUSTER_RUNTIME"), jar, Path.of(System.getProperty("java.home")));
        } catch (RuntimeLocator.NotFound e) {
            err.println("muster: " + e.getMessage());
            return 1;
        }
        LogSetup.quietCoordinator();
        Thread main = Thread.currentThread();
        try (Signals signals = new Signals(signal -> main.interrupt())) {
            List<RemoteResult> results;
            try {
                results = RemoteRun.overSsh(options, ssh, jar, java, line -> {
                    synchronized (err) {
                        err.println(line);
                        err.flush();
                    }
                }).run(manifest, hosts);
            } catch (RemoteRun.Refused e) {
                e.problems().forEach(err::println);
                err.println("muster: " + e.getMessage());
                return 1;
            } catch (InterruptedException e) {
                return signals.exitCode();
            }
            out.print(output.json() ? ResultJson.render(results) : ResultTable.render(results));
            out.flush();
            return RemoteResult.allConverged(results) ? 0 : 1;
        }
    }

    /** The DEST arguments, each checked: its form, its name in the fleet, and no name given twice. */
    private List<Destination> destinations() {
        if (arguments.size() < 2) throw new ParameterException(spec.commandLine(), "expected DEST… -- MANIFEST: at least one host, then the manifest");
        List<Destination> hosts = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String written : arguments.subList(0, arguments.size() - 1)) {
            Destination host;
            try {
                host = Destination.parse(written);
                Keys.checkHost(host.name());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "DEST " + e.getMessage());
            }
            if (!names.add(host.name())) {
                throw new ParameterException(spec.commandLine(), "DEST '" + written + "': the host " + host.name() + " is named twice (NAME=DEST tells them apart)");
            }
            hosts.add(host);
        }
        return hosts;
    }
}
