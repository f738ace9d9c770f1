package io.muster.cli;

import io.muster.agent.Agent;
import io.muster.agent.AgentOptions;
import io.muster.agent.CodecGraphDecoder;
import io.muster.agent.GraphDecoder;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.engine.compile.Assignments;
import io.muster.engine.facts.Facts;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.resource.Kinds;
import io.muster.engine.run.StateLock;
import io.muster.engine.util.Maps;
import io.muster.proto.fleet.Failure;
import io.muster.proto.fleet.HostStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "agent", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run this host's part of the fleet: register with etcd (a lease-bound alive key and the host's facts), "
                + "follow the graph the coordinator compiles for this host, keep it applied live, and report the host's status.",
                "The last graph is kept under --prefix: a restarted agent enforces it at once, even while etcd is down."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped by SIGINT/SIGTERM; with --once: the first graph converged",
                "1:etcd unreachable with no graph kept locally; with --once: the graph failed or did not converge in time",
                "64:usage error (a bad --host, flag or fact)", "75:another run holds the state lock"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster agent --host web1.example.com          join the fleet at $MUSTER_ETCD",
                "  muster agent --host web1 --prefix /tmp/web1   a second agent on this machine",
                "  muster agent --once                           converge once, then exit"})
final class AgentCommand implements Callable<Integer> {
    @Mixin
    FleetOptions fleet;

    @Option(names = "--host", paramLabel = "NAME", description = "This host's name in the fleet (default: the fqdn fact).")
    String host;

    @Option(names = "--prefix", paramLabel = "DIR", description = "Where muster keeps state (default: /var/lib/muster as root, else ~/.local/state/muster).")
    Path prefix;

    @Option(names = "--fact", paramLabel = "KEY=VALUE", description = "Override a fact (--fact role=web; dotted keys nest: --fact os.family=debian).")
    List<String> facts = new ArrayList<>();

    @Option(names = "--facts", paramLabel = "FILE", description = "A YAML or JSON file of facts, merged over the gathered ones.")
    Path factsFile;

    @Option(names = "--lease-ttl", paramLabel = "S", defaultValue = "30",
            description = "Seconds the host stays alive in etcd after the agent is gone (default: ${DEFAULT-VALUE}).")
    long leaseTtl;

    @Option(names = "--once", description = "Exit once the first graph has converged (0), or failed or passed --converged-timeout (1).")
    boolean once;

    @Option(names = "--converged-timeout", paramLabel = "S", defaultValue = "300",
            description = "With --once: how long to wait for the first graph to converge (default: ${DEFAULT-VALUE}).")
    double convergedTimeout;

    /** For muster remote: the agent goes when the SSH connection that started it goes, nothing of muster stays behind. */
    @Option(names = "--stop-on-stdin-eof", hidden = true, description = "Stop as on SIGTERM when stdin reaches end-of-file.")
    boolean stopOnStdinEof;

    @Mixin
    PrometheusFlags prometheus;

    @Option(names = "--debug", description = "Debug logging, and stack traces for internal errors.")
    boolean debug;

    @Spec
    CommandSpec spec;

    /** How long nothing may change for the host to count as converged. */
    private static final double QUIET_SECONDS = 1;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (leaseTtl < 1) throw new ParameterException(spec.commandLine(), "--lease-ttl must be at least 1 second, got " + leaseTtl);
        if (!(convergedTimeout > 0) || Double.isInfinite(convergedTimeout)) {
            throw new ParameterException(spec.commandLine(), "--converged-timeout must be above 0 seconds, got " + convergedTimeout);
        }
        prometheus.serve();
        EtcdOptions etcdOptions = fleet.etcd();
        Map<String, Object> overrides;
        try {
            overrides = factsFile == null ? Map.of() : Assignments.readMap(factsFile);
            overrides = Maps.deepMerge(overrides, Assignments.parse(facts, "--fact"));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (ManifestException e) {
            for (Problem p : e.problems()) err.println(p);
            return 1;
        }
        String name = host != null ? host : String.valueOf(Facts.of(overrides).get("fqdn"));
        FleetOptions.checkHost(spec, name);
        if (!overrides.containsKey("host")) { // templates name the host as the fleet knows it: facts.host
            Map<String, Object> withHost = new java.util.LinkedHashMap<>(overrides);
            withHost.put("host", name);
            overrides = withHost;
        }
        GraphDecoder decoder = new CodecGraphDecoder(Kinds.installed());
        Path state = (prefix != null ? prefix : RunFlags.defaultPrefix()).toAbsolutePath();
        AgentOptions options = new AgentOptions(name, state, overrides, Duration.ofSeconds(leaseTtl), QUIET_SECONDS,
                Runtime.getRuntime().availableProcessors());
        Etcd etcd;
        boolean resume = Agent.hasLocalGraph(options);
        try {
            if (once && resume) {
                // --once converges to what the fleet says now; the graph kept locally only when etcd cannot be reached
                // (as Puppet falls back on its cached catalog): resuming it first would apply two graphs in turn
                try {
                    etcd = Etcd.connect(etcdOptions);
                    resume = false;
                } catch (EtcdUnreachableException e) {
                    err.println("muster: " + e.getMessage() + "; converging to the graph kept under " + options.prefix());
                    err.flush();
                    etcd = Etcd.client(etcdOptions);
                }
            } else {
                // with no graph kept locally there is nothing to do without etcd: say so now rather than wait for it
                etcd = resume ? Etcd.client(etcdOptions) : Etcd.connect(etcdOptions);
            }
        } catch (EtcdUnreachableException e) {
            err.println("muster: " + e.getMessage());
            return 1;
        }
        try (Etcd client = etcd) {
            return run(options, client, decoder, resume);
        }
    }

    @SuppressWarnings("try") // the lock is held while the agent runs, never called
    /** @param resume whether to enforce the graph kept locally while etcd is followed */
    private int run(AgentOptions options, Etcd etcd, GraphDecoder decoder, boolean resume) throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        StateLock lock;
        try {
            lock = StateLock.tryAcquire(options.prefix());
        } catch (StateLock.HeldException e) {
            err.println("muster: " + e.getMessage());
            return LockFlags.HELD;
        } catch (IOException e) {
            err.println("muster: cannot lock the state prefix " + options.prefix() + ": " + e.getMessage());
            return 1;
        }
        CountDownLatch done = new CountDownLatch(1);
        try (lock; Signals signals = new Signals(signal -> done.countDown())) {
            if (stopOnStdinEof) stopAtEndOfStdin(done);
            Metrics metrics = new Metrics();
            Metrics.Endpoint server;
            Agent agent;
            try {
                server = prometheus.start(metrics);
            } catch (IOException e) {
                err.println("muster: cannot serve metrics on " + prometheus.listen + ": " + e.getMessage());
                return 1;
            }
            try {
                agent = new Agent(options, etcd, decoder, metrics);
            } catch (IOException e) {
                err.println("muster: cannot keep the agent's state under " + options.prefix() + ": " + e.getMessage());
                if (server != null) server.close();
                return 1;
            }
            try (server; agent) {
                if (resume) agent.start();
                else agent.startFromEtcd();
                if (!once) {
                    done.await();
                    return 0;
                }
                AtomicReference<Agent.Outcome> outcome = new AtomicReference<>();
                Thread.ofVirtual().start(() -> {
                    try {
                        outcome.set(agent.awaitConverged(Duration.ofMillis(Math.round(convergedTimeout * 1000))));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    done.countDown();
                });
                done.await();
                if (outcome.get() != null) return report(outcome.get(), agent.currentStatus(), options.host());
                return signals.caught() != null ? signals.exitCode() : 1; // stdin ended before the graph converged
            }
        }
    }

    /**
     * Counts {@code done} down once stdin ends (or cannot be read). A command started over SSH without a terminal gets
     * no SIGHUP when the connection drops, but its stdin ends: this is how muster remote's agent learns it is alone.
     */
    private void stopAtEndOfStdin(CountDownLatch done) {
        Thread.ofPlatform().daemon().name("stdin").start(() -> {
            try {
                System.in.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (IOException unreadable) {
                // as good as ended
            }
            System.err.println("muster: stopping (stdin closed)");
            done.countDown();
        });
    }

    private static String seconds(double s) {
        return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
    }

    /** The --once outcome: one line, then a line per failed resource; the exit code. */
    private int report(Agent.Outcome outcome, HostStatus status, String name) {
        PrintWriter out = spec.commandLine().getOut();
        String deploy = status.getDeploy() == 0 ? "" : " (deploy " + status.getDeploy() + ")";
        switch (outcome) {
            case CONVERGED -> out.println(name + ": converged" + deploy);
            case TIMED_OUT -> out.println(name + ": not converged within " + seconds(convergedTimeout) + " s" + deploy);
            case FAILED -> out.println(name + ": failed" + deploy);
        }
        if (!status.getError().isEmpty()) out.println("  " + status.getError());
        for (Failure f : status.getFailedList()) out.println("  " + f.getId() + ": " + f.getError());
        out.flush();
        return outcome == Agent.Outcome.CONVERGED ? 0 : 1;
    }
}
