package io.muster.cli;

import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.Coordinator;
import io.muster.coordinator.CoordinatorOptions;
import io.muster.coordinator.GraphEncoder;
import io.muster.coordinator.dev.DevEtcd;
import io.muster.engine.facts.Facts;
import io.muster.engine.graph.GraphFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "coordinator", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a coordinator: compiles each host's graph for the current deploy with the facts its agent published, "
                + "and publishes it. Several may run: one leads (etcd election), the others take over within --lease-ttl when it dies.",
                "--dev: also start a private etcd (the etcd binary on PATH, Debian package etcd-server) on the --etcd URL, its data "
                        + "under --prefix, for trying muster on one machine; prints the endpoint to use."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped by SIGINT or SIGTERM", "1:etcd unreachable at start, or --dev could not start etcd", "64:usage error"})
final class CoordinatorCommand implements Callable<Integer> {
    /** WIRING(graph-value): GraphCodec's canonical encoding replaces this stand-in (the graph's JSON). */
    private static final GraphEncoder ENCODER = graph -> {
        byte[] bytes = GraphFormat.json(graph).getBytes(StandardCharsets.UTF_8);
        return new GraphEncoder.Encoded(bytes, ContentStore.sha256(bytes));
    };

    @Option(names = "--dev", description = "Start a private etcd (and this host's agent) in this process.")
    boolean dev;

    @Option(names = "--lease-ttl", paramLabel = "S", description = "A dead leader is replaced within S seconds (default: ${DEFAULT-VALUE}).",
            defaultValue = "" + CoordinatorOptions.DEFAULT_LEASE_TTL_SECONDS)
    long leaseTtl;

    @Option(names = "--prefix", paramLabel = "DIR", description = "Where it keeps state: bundles, and --dev's etcd (default: /var/lib/muster as root, "
            + "else ~/.local/state/muster).")
    Path prefix;

    @Option(names = "--name", paramLabel = "NAME", description = "Its name in the election (default: host name and process id).")
    String name;

    @Option(names = "--compile-threads", paramLabel = "N", description = "Hosts compiled at once (default: the number of cores).")
    Integer compileThreads;

    @Mixin
    FleetOptions fleet;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        EtcdOptions options = fleet.etcd();
        CoordinatorOptions coordinatorOptions = options();
        DevEtcd etcdProcess = null;
        try {
            if (dev) {
                etcdProcess = DevEtcd.start(options.endpoints().getFirst(), state().resolve("dev-etcd"));
                out.println("etcd for the fleet: " + options.endpoints().getFirst() + "  (export MUSTER_ETCD=" + options.endpoints().getFirst() + ")");
                out.flush();
            }
            try (Etcd etcd = Etcd.connect(options);
                 Coordinator coordinator = new Coordinator(etcd, coordinatorOptions, ENCODER)) {
                CountDownLatch stop = new CountDownLatch(1);
                try (Signals signals = new Signals(signal -> stop.countDown())) {
                    coordinator.start();
                    // WIRING(agent): with --dev, start this host's agent here, in this process, on the same etcd and prefix
                    stop.await();
                }
            }
            return 0;
        } catch (EtcdUnreachableException | IOException e) {
            err.println("muster: " + e.getMessage());
            return 1;
        } finally {
            if (etcdProcess != null) etcdProcess.close();
        }
    }

    private CoordinatorOptions options() {
        String me = name != null ? name : Facts.hostname() + "-" + ProcessHandle.current().pid();
        int threads = compileThreads != null ? compileThreads : Runtime.getRuntime().availableProcessors();
        try {
            return new CoordinatorOptions(me, Duration.ofSeconds(leaseTtl), threads, state().resolve("coordinator"), CoordinatorOptions.DEFAULT_COMPACT_EVERY);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private Path state() {
        return prefix != null ? prefix.toAbsolutePath() : RunFlags.defaultPrefix();
    }
}
