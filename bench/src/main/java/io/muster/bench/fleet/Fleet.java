package io.muster.bench.fleet;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.dev.DevEtcd;
import io.muster.coordinator.rollout.Rollouts;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.RolloutState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The harness of bench/fleet.sh: one run of N simulated hosts ({@link SimulatedHosts}) against a real etcd
 * (the one {@code muster coordinator --dev} starts, {@link DevEtcd}: the etcd on PATH, on a free loopback port, its data in the work directory) and a real {@code muster coordinator} ({@link CoordinatorProcess}), two deploys through
 * {@code muster deploy} (the first, then a one-line change), a deploy in waves (canary 1, batch 10%) and one whose
 * canary fails, and the floors. Progress on stderr; one JSON
 * object on stdout, which the script turns into its table.
 *
 * <pre>
 *   java -cp bench/target/classes:cli/target/muster.jar io.muster.bench.fleet.Fleet N WORK_DIR MUSTER_LAUNCHER [COMPILE_THREADS]
 * </pre>
 *
 * COMPILE_THREADS is the coordinator's --compile-threads (default: its own default).
 */
public final class Fleet {
    private static final String NAMESPACE = "/bench/";
    private static final Duration CONVERGE_WITHIN = Duration.ofMinutes(5);

    private final int n;
    private final int compileThreads;
    private final Path work;
    private final Path muster;
    private final Client etcd; // the bench's own view, outside the namespace's client
    private final Etcd fleet; // the agents' shared client
    private final String endpoint;
    private final long etcdPid;

    private Fleet(int n, Path work, Path muster, String endpoint, int compileThreads) throws Exception {
        this.n = n;
        this.compileThreads = compileThreads;
        this.work = work;
        this.muster = muster;
        this.endpoint = endpoint;
        this.etcdPid = ProcessHandle.current().children().filter(p -> p.info().command().orElse("").endsWith("/etcd"))
                .findFirst().orElseThrow(() -> new IllegalStateException("no etcd among this process's children")).pid();
        this.etcd = Client.builder().endpoints(endpoint).build();
        this.fleet = Etcd.connect(EtcdOptions.of(endpoint, NAMESPACE, Duration.ofSeconds(10)));
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: Fleet N WORK_DIR MUSTER_LAUNCHER [COMPILE_THREADS]");
            System.exit(64);
        }
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(ch.qos.logback.classic.Level.WARN); // not a line per host and graph
        int n = Integer.parseInt(args[0]);
        Path work = Path.of(args[1]);
        String endpoint = "http://127.0.0.1:" + freePort();
        int status = 0;
        try (DevEtcd server = DevEtcd.start(URI.create(endpoint), work.resolve("etcd"))) {
            Fleet bench = new Fleet(n, work, Path.of(args[2]), endpoint, args.length > 3 ? Integer.parseInt(args[3]) : 0);
            System.out.println(bench.run());
            bench.close();
        } catch (Exception e) {
            e.printStackTrace();
            status = 2;
        }
        System.exit(status); // gRPC's threads, and agents left running after a failure, would keep the JVM
    }

    private Json run() throws Exception {
        Json out = new Json().put("hosts", n).put("compile_threads", compileThreads == 0 ? null : compileThreads);
        try (FleetWatch watch = new FleetWatch(etcd, NAMESPACE, revision() + 1);
             CoordinatorProcess coordinator = CoordinatorProcess.start(muster, endpoint, NAMESPACE, work.resolve("coordinator"),
                     compileThreads, work.resolve("coordinator.log"))) {
            log("starting the coordinator");
            coordinator.awaitLeading(etcd, NAMESPACE, Duration.ofMinutes(2));
            log("starting " + n + " agents");
            SimulatedHosts hosts = new SimulatedHosts(fleet, work.resolve("hosts"), n);
            long start = System.nanoTime();
            hosts.start();
            long registered = watch.awaitRegistered(n, CONVERGE_WITHIN);
            if (registered < 0) throw new IllegalStateException("not all " + n + " agents wrote a status within " + CONVERGE_WITHIN);
            out.put("agents_start_ms", ms(registered - start));
            BenchBundle bundle = new BenchBundle(work.resolve("bundle"));
            for (int release = 1; release <= 2; release++) {
                bundle.release(release);
                out.put(release == 1 ? "first" : "change", deploy(watch, bundle, hosts, coordinator, release));
            }
            out.put("rollout", rollout(watch, bundle, hosts));
            out.put("halt", halt(watch, bundle));
            out.put("status_puts_floor_ms", statusPutsFloor(hosts.names()));
            out.put("agents_peak_rss_mb", ProcStatus.peakRssMb(ProcessHandle.current().pid()));
            out.put("agents_threads", ProcStatus.threads(ProcessHandle.current().pid()));
            out.put("coordinator_peak_rss_mb", coordinator.peakRssMb());
            Map<String, byte[]> facts = facts(hosts.names());
            log("stopping the agents and the coordinator");
            hosts.close();
            coordinator.close();
            log("timing " + n + " compiles");
            CompileTimes.Times compiles = CompileTimes.of(bundle.manifest(), facts);
            out.put("compile_median_ms", compiles.medianMs()).put("compile_max_ms", compiles.maxMs())
                    .put("compile_cpu_ms", compiles.compileCpuMs()).put("encode_cpu_ms", compiles.encodeCpuMs())
                    .put("compile_unshared_cpu_ms", compiles.unsharedCompileCpuMs());
        }
        return out;
    }

    /** One deploy through {@code muster deploy}, timed from the command's start, and what it wrote. */
    private Json deploy(FleetWatch watch, BenchBundle bundle, SimulatedHosts hosts, CoordinatorProcess coordinator, int release) throws Exception {
        long self = ProcessHandle.current().pid();
        long keysBefore = keys();
        long dbBefore = dbSize();
        long revisionBefore = revision();
        log("deploy " + release + " (" + (release == 1 ? "first" : "one line changed") + ")");
        double coordinatorCpu = coordinator.cpuSeconds();
        double agentsCpu = ProcStatus.cpuSeconds(self);
        double etcdCpu = ProcStatus.cpuSeconds(etcdPid);
        long start = System.nanoTime();
        long id = deployCommand(bundle, release);
        long deployed = System.nanoTime();
        long converged = watch.awaitConverged(id, n, CONVERGE_WITHIN);
        if (converged < 0) throw new IllegalStateException(watch.converged(id) + " of " + n + " hosts converged on deploy " + id + " within " + CONVERGE_WITHIN);
        double coordinatorUsed = coordinator.cpuSeconds() - coordinatorCpu;
        double agentsUsed = ProcStatus.cpuSeconds(self) - agentsCpu;
        double etcdUsed = ProcStatus.cpuSeconds(etcdPid) - etcdCpu;
        verify(hosts, release, fleet);
        long revisionAfter = revision();
        if (!watch.awaitRevision(revisionAfter, Duration.ofSeconds(30))) throw new IllegalStateException("the watch did not reach revision " + revisionAfter);
        Json written = new Json();
        watch.written(revisionBefore, revisionAfter).forEach((kind, w) -> written.put(kind, new Json().put("puts", w.puts()).put("bytes", w.bytes())));
        return new Json().put("deploy", id)
                .put("command_ms", ms(deployed - start))
                .put("published_ms", ms(watch.published(id) - start))
                .put("pointers_ms", ms(watch.lastPointer(id) - start))
                .put("running_ms", ms(watch.lastRunning(id) - start))
                .put("converged_ms", ms(converged - start))
                .put("coordinator_cpu_s", coordinatorUsed).put("agents_cpu_s", agentsUsed).put("etcd_cpu_s", etcdUsed)
                .put("keys_before", keysBefore).put("keys_after", keys())
                .put("db_bytes_before", dbBefore).put("db_bytes_after", dbSize())
                .put("written", written);
    }

    /** Runs {@code muster deploy FLAGS} on the bundle; returns the id it printed. */
    private long deployCommand(BenchBundle bundle, int release, String... flags) throws Exception {
        List<String> command = new ArrayList<>(List.of(muster.toString(), "deploy", "--etcd", endpoint, "--namespace", NAMESPACE,
                "--message", "bench release " + release));
        command.addAll(List.of(flags));
        command.add(bundle.dir().toString());
        Process deploy = new ProcessBuilder(command).redirectError(work.resolve("deploy-" + release + ".err").toFile()).start();
        String printed = new String(deploy.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (deploy.waitFor() != 0) throw new IllegalStateException("muster deploy exited " + deploy.exitValue() + "; see " + work.resolve("deploy-" + release + ".err"));
        return Long.parseLong(printed.substring(printed.lastIndexOf('\n') + 1)); // its last line: JVM options may print before
    }

    /**
     * A deploy in waves (canary 1, then waves of 10% of the hosts), through {@code muster deploy --canary 1 --batch
     * 10%}: from the command's start to its rollout done, and to every host converged on it.
     */
    private Json rollout(FleetWatch watch, BenchBundle bundle, SimulatedHosts hosts) throws Exception {
        bundle.release(3);
        log("deploy 3 in waves (canary 1, batch 10%)");
        long start = System.nanoTime();
        long id = deployCommand(bundle, 3, "--canary", "1", "--batch", "10%");
        long done = watch.awaitRollout(id, RolloutState.DONE, CONVERGE_WITHIN);
        long converged = watch.awaitConverged(id, n, CONVERGE_WITHIN);
        if (done < 0 || converged < 0) throw new IllegalStateException("deploy " + id + "'s rollout was not done within " + CONVERGE_WITHIN + "; "
                + watch.converged(id) + " of " + n + " hosts converged");
        verify(hosts, 3, fleet);
        int waves = Rollouts.read(fleet, id).orElseThrow().getWavesCount();
        return new Json().put("deploy", id).put("waves", waves).put("done_ms", ms(done - start)).put("converged_ms", ms(converged - start));
    }

    /**
     * A deploy in waves whose canary fails (a resource of its own that fails when it runs): from the canary's failed
     * status arriving to the rollout stalled arriving (both as a watch sees them), and how many hosts it reached.
     */
    private Json halt(FleetWatch watch, BenchBundle bundle) throws Exception {
        String canary = SimulatedHosts.name(1);
        bundle.release(4, canary);
        log("deploy 4 in waves, its canary failing");
        long start = System.nanoTime();
        long id = deployCommand(bundle, 4, "--canary", "1", "--batch", "10%");
        long stalled = watch.awaitRollout(id, RolloutState.STALLED, CONVERGE_WITHIN);
        long failed = watch.failed(id, canary);
        if (stalled < 0 || failed < 0) throw new IllegalStateException("deploy " + id + "'s rollout did not halt on its failing canary within " + CONVERGE_WITHIN);
        return new Json().put("deploy", id).put("canary_failed_ms", ms(failed - start)).put("stalled_ms", ms(stalled - start))
                .put("halt_ms", ms(stalled - failed)).put("hosts_reached", watch.pointed(id));
    }

    /** Every host's etc/release holds the release: the status said converged, the files must say so too. */
    private static void verify(SimulatedHosts hosts, int release, Etcd fleet) throws Exception {
        for (String host : hosts.names()) {
            Path file = hosts.root(host).resolve("etc/release");
            String content = Files.exists(file) ? Files.readString(file) : "(missing)";
            if (!content.equals(BenchBundle.releaseContent(release))) {
                List<KeyValue> status = fleet.await(fleet.kv().get(Keys.status(host))).getKvs();
                throw new IllegalStateException(file + ": expected release " + release + " after convergence, found " + content.strip()
                        + "; the host's status: " + (status.isEmpty() ? "none" : HostStatus.parseFrom(status.getFirst().getValue().getBytes())));
            }
        }
    }

    /**
     * The floor of a deploy's fan-in: etcd taking one status write per host from one client, as many at once
     * as there are hosts, each a transaction on the key's revision as the agents' status writes are, the value
     * a real host's status. No agent, graph or file in it.
     */
    private double statusPutsFloor(List<String> hosts) throws Exception {
        ByteSequence status = fleet.await(fleet.kv().get(Keys.status(hosts.getFirst()))).getKvs().getFirst().getValue();
        long start = System.nanoTime();
        List<CompletableFuture<?>> puts = new ArrayList<>();
        for (String host : hosts) {
            ByteSequence key = Keys.key("floor/" + host);
            puts.add(fleet.kv().txn().If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(0)))
                    .Then(Op.put(key, status, PutOption.DEFAULT)).commit());
        }
        CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).get();
        double floor = ms(System.nanoTime() - start);
        fleet.await(fleet.kv().delete(Keys.key("floor/"), DeleteOption.builder().isPrefix(true).build()));
        return floor;
    }

    /** Each host's facts as its agent stored them, for the compile timing. */
    private Map<String, byte[]> facts(List<String> hosts) throws Exception {
        Map<String, byte[]> facts = new LinkedHashMap<>();
        for (String host : hosts) {
            List<KeyValue> kvs = fleet.await(fleet.kv().get(Keys.facts(host))).getKvs();
            if (!kvs.isEmpty()) facts.put(host, kvs.getFirst().getValue().getBytes());
        }
        return facts;
    }

    private long keys() throws Exception {
        return etcd.getKVClient().get(FleetWatch.bytes(NAMESPACE), GetOption.builder().isPrefix(true).withCountOnly(true).build()).get().getCount();
    }

    private long revision() throws Exception {
        GetResponse r = etcd.getKVClient().get(FleetWatch.bytes(NAMESPACE), GetOption.builder().isPrefix(true).withCountOnly(true).build()).get();
        return r.getHeader().getRevision();
    }

    /** etcd's database file size (bbolt; grows in pages and does not shrink without a defrag). */
    private long dbSize() throws Exception {
        return etcd.getMaintenanceClient().statusMember(endpoint).get().getDbSize();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static double ms(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / 1e6;
    }

    private static void log(String message) {
        System.err.println("fleet: " + message);
    }

    private void close() {
        fleet.close();
        etcd.close();
    }
}
