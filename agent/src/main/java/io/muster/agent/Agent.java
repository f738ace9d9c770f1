package io.muster.agent;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.muster.agent.bundle.LocalBundles;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.EtcdWorld;
import io.muster.agent.etcd.HostRegistration;
import io.muster.agent.etcd.Keys;
import io.muster.agent.etcd.StateWatch;
import io.muster.agent.etcd.Waits;
import io.muster.engine.codec.PlainCodec;
import io.muster.engine.facts.Facts;
import io.muster.engine.graph.Graph;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.Status;
import io.muster.engine.run.LiveRun;
import io.muster.engine.run.RunOptions;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.BundleFile;
import io.muster.proto.fleet.Deploy;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code muster agent}: registers this host with the fleet, follows the graph the coordinator publishes for
 * it ({@code hosts/<host>/graph}), runs it live and reports its status. A new graph is swapped into the
 * running engine (unchanged resources keep running untouched); a pointer that carries a compile error leaves
 * the running graph as it is and puts the error in the status. The last graph is kept on local disk, so a
 * restarted agent enforces it at once, even while etcd is away, and catches up when etcd is back.
 *
 * <p>Threads: the pointer's watch only takes note of the newest pointer; one thread of the agent's (the
 * applier) fetches, decodes and swaps in graphs, one at a time, so the engine sees one swap at a time.
 */
public final class Agent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("muster.agent");
    /**
     * How long a new graph's own changes must be followed by quiet for the host to count as converged. The whole
     * quiet period ({@link AgentOptions#quietSeconds}) guards against a drift repaired again and again; a deploy is
     * none, and every host of the fleet would otherwise add the whole quiet period to every deploy.
     */
    static final double SETTLE_SECONDS = 0.1;

    private final AgentOptions options;
    private final Etcd etcd;
    private final GraphDecoder decoder;
    private final ContentStore store;
    private final LocalGraph local;
    private final LocalBundles bundles;
    private final HostRegistration registration;
    private final EtcdWorld world;
    private final StatusReporter reporter;
    private final LiveRun live;
    /** The applier's: between attempts to fetch a graph while etcd is away. */
    private final Backoff backoff = Backoff.forAgent();
    private final Object lock = new Object();
    private GraphPointer latest; // guarded by lock: the newest pointer seen, not yet applied
    private boolean closed; // guarded by lock
    private Running running; // guarded by lock: the graph the engine runs; null before the first
    private String error; // guarded by lock: why the host does not run what its pointer says; null when it does
    private boolean caughtUp; // guarded by lock: etcd's pointer was seen (or found absent) and acted on once
    private StateWatch<ByteSequence> pointerWatch;
    private CertificateRenewals renewals; // null: this agent's certificate is not the coordinator's to rotate
    private Thread applier;

    /** What runs: the deploy it came from and its sha256. */
    private record Running(long deploy, String graph, GraphDecoder.BundleLayout layout) {}

    public Agent(AgentOptions options, Etcd etcd, GraphDecoder decoder, Metrics metrics) throws IOException {
        this.options = options;
        this.etcd = etcd;
        this.decoder = decoder;
        this.store = new ContentStore(etcd);
        this.local = new LocalGraph(options.dir());
        this.bundles = new LocalBundles(options.dir().resolve("bundles"), store);
        Alive alive = Alive.newBuilder().setVersion(version()).setStarted(System.currentTimeMillis()).build();
        this.registration = new HostRegistration(etcd, options.host(), options.leaseTtl(), alive,
                () -> io.muster.proto.fleet.Facts.newBuilder().setFacts(PlainCodec.encodeMap(Facts.of(options.facts()))).build(),
                options.dir().resolve("lease"));
        this.world = new EtcdWorld(etcd, registration, options.host());
        this.reporter = new StatusReporter(etcd, options.host(), this::status, () -> registration.lease() != 0, Backoff.forAgent());
        registration.onRegistered(lease -> reporter.changed());
        RunOptions run = new RunOptions(options.host(), false, options.sema(), options.prefix(), false, false);
        LiveRun.Quiet quiet = new LiveRun.Quiet(options.quietSeconds(), SETTLE_SECONDS);
        // a change or a stable check alone is no news the reporter writes at once (see StatusReporter): converging,
        // which follows, nudges it; a failure (or a skip, an unresolvable) does at once
        this.live = new LiveRun(run, world, quiet, metrics, report -> {
            if (report.status() != Status.CHANGED && report.status() != Status.STABLE) reporter.changed();
        }, converged -> reporter.changed());
    }

    /** Whether an agent with {@code options} finds a graph kept on local disk to enforce. */
    public static boolean hasLocalGraph(AgentOptions options) {
        return LocalGraph.exists(options.dir());
    }

    /**
     * Starts enforcing the graph kept on local disk, if any, then registers and follows the pointer.
     *
     * @return whether a local graph runs
     */
    public boolean start() throws InterruptedException {
        boolean resumed = resumeLocal();
        follow();
        return resumed;
    }

    /**
     * Starts without the graph kept on local disk: registers and runs the graph etcd names for this host. For a
     * run that converges once to what the fleet says now ({@code --once}, {@code muster remote}): resuming first
     * would apply the previous run's graph and then this one, changing a file twice.
     */
    public void startFromEtcd() {
        follow();
    }

    private void follow() {
        reporter.start();
        reporter.changed(); // a host with no graph yet says so too
        registration.start();
        applier = Thread.ofVirtual().name("graph applier").start(this::applyPointers);
        EtcdTls tls = etcd.options().tls();
        if (CertificateRenewals.rotates(tls, options.host())) renewals = new CertificateRenewals(etcd, options.host(), tls);
        pointerWatch = StateWatch.values(etcd, Keys.graphPointer(options.host()), false, Backoff.forAgent(), state -> {
            ByteSequence value = StateWatch.value(state, Keys.graphPointer(options.host()));
            if (value == null) { // no graph assigned (yet): keep running what runs
                synchronized (lock) {
                    caughtUp = true;
                    lock.notifyAll();
                }
                return;
            }
            try {
                offer(GraphPointer.parseFrom(value.getBytes()));
            } catch (InvalidProtocolBufferException e) {
                fail("the graph pointer " + Keys.text(Keys.graphPointer(options.host())) + " is not one: " + e.getMessage());
            }
        });
    }

    private boolean resumeLocal() throws InterruptedException {
        Optional<LocalGraph.Saved> saved;
        try {
            saved = local.load();
        } catch (IOException e) {
            LOG.warn("not running the graph kept on disk: {}", e.getMessage());
            return false;
        }
        if (saved.isEmpty()) return false;
        GraphPointer pointer = saved.get().pointer();
        try {
            byte[] bytes = saved.get().graph();
            Path kept = Files.isDirectory(bundlePath()) ? bundlePath().toRealPath() : null;
            Prepared prepared;
            if (kept != null) {
                Graph graph = decoder.decode(bytes, bundlePath());
                prepared = new Prepared(graph, kept, GraphDecoder.BundleLayout.of(graph));
            } else {
                prepared = decode(bytes, 0);
            }
            swap(pointer, prepared);
            LOG.info("running graph {} of deploy {} (kept on disk)", brief(pointer.getGraph()), pointer.getDeploy());
            return true;
        } catch (GraphDecoder.UnusableGraphException | IOException | EtcdUnreachableException e) {
            LOG.warn("not running the graph kept on disk: {}", e.getMessage());
            return false;
        }
    }

    /**
     * The graph {@code bytes} encode, its bundle laid out locally (fetching what is not on disk yet) and
     * bound to {@link #bundlePath()}, which {@link #swap} points at it.
     */
    private Prepared decode(byte[] bytes, long deploy) throws GraphDecoder.UnusableGraphException, IOException, EtcdUnreachableException {
        Graph graph = decoder.decode(bytes, bundlePath());
        GraphDecoder.BundleLayout layout = GraphDecoder.BundleLayout.of(graph);
        return new Prepared(graph, tree(layout, deploy), layout);
    }

    /**
     * The bundle tree of a graph of {@code deploy} that names {@code layout}: the files the graph reads, and
     * every other file of the deploy's bundle but its manifests and data with its executable bit (a script an exec
     * runs is named by no property), read from {@code deploys/<id>}; the graph's files alone when the deploy is
     * not there (or 0).
     */
    private Path tree(GraphDecoder.BundleLayout layout, long deploy) throws IOException, EtcdUnreachableException {
        Map<String, String> files = new TreeMap<>();
        Set<String> executables = new TreeSet<>();
        if (deploy > 0) {
            List<KeyValue> found = etcd.await(etcd.kv().get(Keys.deploy(deploy))).getKvs();
            if (!found.isEmpty()) {
                for (BundleFile file : Deploy.parseFrom(found.get(0).getValue().getBytes()).getFilesList()) {
                    if (file.getCompileOnly()) continue; // a manifest stays with the coordinators, unless the graph names it (below)
                    files.put(file.getPath(), file.getSha256());
                    if (file.getExecutable()) executables.add(file.getPath());
                }
            }
        }
        files.putAll(layout.files());
        return bundles.tree(files, layout.directories(), executables);
    }

    /** A decoded graph, the bundle tree it runs on, and the bundle files it names. */
    private record Prepared(Graph graph, Path tree, GraphDecoder.BundleLayout layout) {}

    /**
     * Where every graph this agent runs finds its bundle: a link to the tree of the graph that runs. One path
     * for all of them, so a new deploy leaves an exec's working directory (the bundle, by default) as it was:
     * the exec is the same resource and is not run again. A resource whose bundle file changed is replaced
     * all the same (the engine compares the files' sha256).
     */
    private Path bundlePath() {
        return options.dir().resolve("bundle");
    }

    /** Points {@link #bundlePath()} at {@code tree}: a new link renamed over the old one, never a moment without. */
    private void pointBundleAt(Path tree) throws IOException {
        Path link = bundlePath();
        Path next = link.resolveSibling("bundle.next");
        Files.deleteIfExists(next);
        Files.createSymbolicLink(next, tree);
        Files.move(next, link, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private void offer(GraphPointer pointer) {
        synchronized (lock) {
            latest = pointer;
            lock.notifyAll();
        }
    }

    private void applyPointers() {
        while (true) {
            GraphPointer next;
            synchronized (lock) {
                try {
                    while (latest == null && !closed) lock.wait();
                } catch (InterruptedException e) {
                    return;
                }
                if (closed) return;
                next = latest;
                latest = null;
            }
            try {
                apply(next);
                backoff.reset();
                synchronized (lock) {
                    caughtUp = true;
                    lock.notifyAll();
                }
            } catch (EtcdUnreachableException e) {
                LOG.warn("fetching graph {}: {}; retrying", brief(next.getGraph()), e.getMessage());
                synchronized (lock) {
                    if (latest == null) latest = next; // unless a newer pointer came meanwhile
                }
                if (!Waits.pause(lock, backoff.next(), () -> closed)) return;
            } catch (InterruptedException e) {
                return;
            }
            reporter.changed();
        }
    }

    private void apply(GraphPointer pointer) throws EtcdUnreachableException, InterruptedException {
        String compileError = pointer.getError().isEmpty() ? null : pointer.getError();
        if (compileError != null) LOG.warn("deploy {} did not compile for {}: {}", pointer.getDeploy(), options.host(), compileError);
        Running now = running();
        if (pointer.getGraph().isEmpty() || now != null && now.graph().equals(pointer.getGraph())) {
            if (now != null && compileError == null && now.deploy() != pointer.getDeploy()) {
                // a deploy that changed nothing for this host: the same graph, now of this deploy
                try {
                    local.saveDeploy(pointer);
                    // the same graph, but the deploy's other files (scripts) may have changed
                    pointBundleAt(tree(now.layout(), pointer.getDeploy()));
                } catch (IOException e) {
                    LOG.warn("cannot lay out deploy {}'s bundle for the running graph: {}", pointer.getDeploy(), e.getMessage());
                }
            }
            synchronized (lock) {
                if (now != null && compileError == null) running = new Running(pointer.getDeploy(), now.graph(), now.layout());
                error = compileError;
            }
            return;
        }
        // with a compile error, the pointer's graph is an older deploy's, which the pointer does not name
        GraphPointer runs = compileError == null ? pointer : pointer.toBuilder().setDeploy(now == null ? 0 : now.deploy()).build();
        try {
            Optional<byte[]> stored = store.get(Keys.graph(options.host(), pointer.getGraph()));
            if (stored.isEmpty() && pointerMoved(pointer)) {
                // the leader replaced it (a host keeps one stored graph): the watch brings the pointer that names the new one
                LOG.debug("graph {} was replaced before it was fetched", brief(pointer.getGraph()));
                return;
            }
            byte[] bytes = stored.orElseThrow(() -> new GraphDecoder.UnusableGraphException("it is missing from etcd"));
            Prepared prepared = decode(bytes, runs.getDeploy());
            local.save(runs, bytes);
            swap(runs, prepared);
            synchronized (lock) {
                error = compileError;
            }
            LOG.info("running graph {} of deploy {}", brief(pointer.getGraph()), runs.getDeploy());
        } catch (GraphDecoder.UnusableGraphException | ContentStore.CorruptValueException | IOException e) {
            fail("graph " + brief(pointer.getGraph()) + " of deploy " + pointer.getDeploy() + " cannot run here: " + e.getMessage());
        }
    }

    /** Whether the host's pointer in etcd names another graph than {@code pointer} does. */
    private boolean pointerMoved(GraphPointer pointer) throws EtcdUnreachableException {
        List<KeyValue> now = etcd.await(etcd.kv().get(Keys.graphPointer(options.host()))).getKvs();
        try {
            return now.isEmpty() || !GraphPointer.parseFrom(now.getFirst().getValue().getBytes()).getGraph().equals(pointer.getGraph());
        } catch (InvalidProtocolBufferException e) {
            return true; // not a pointer: the watch reports it
        }
    }

    private void swap(GraphPointer pointer, Prepared prepared) throws InterruptedException, IOException {
        pointBundleAt(prepared.tree());
        live.swap(prepared.graph());
        synchronized (lock) {
            running = new Running(pointer.getDeploy(), pointer.getGraph(), prepared.layout());
            lock.notifyAll();
        }
    }

    private void fail(String why) {
        LOG.warn("{}; keeping the graph that runs", why);
        synchronized (lock) {
            error = why;
            lock.notifyAll();
        }
        reporter.changed();
    }

    private Running running() {
        synchronized (lock) {
            return running;
        }
    }

    /** The host's status as the fleet should see it now. */
    HostStatus status() {
        Running now;
        String why;
        synchronized (lock) {
            now = running;
            why = error;
        }
        return HostState.of(now == null ? 0 : now.deploy(), now == null ? "" : now.graph(), now != null && live.converged(),
                now == null ? List.of() : live.stats(), why, live.collected(), bundlePath());
    }

    /** How the first graph went, for {@code --once}. */
    public enum Outcome { CONVERGED, FAILED, TIMED_OUT }

    /**
     * Waits until a graph runs and has converged, at most {@code patience}, and writes the status that says so.
     * The graph is the one etcd names when etcd answers within the connect timeout, else the one kept on disk.
     *
     * @return {@link Outcome#FAILED} when it converged with failed resources, or no graph could run
     */
    public Outcome awaitConverged(Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        long etcdDeadline = Math.min(deadline, System.nanoTime() + etcd.options().connectTimeout().toNanos());
        synchronized (lock) {
            for (long left; !caughtUp && (left = etcdDeadline - System.nanoTime()) > 0; ) lock.wait(Math.max(1, left / 1_000_000));
            for (long left; running == null && error == null && (left = deadline - System.nanoTime()) > 0; ) {
                lock.wait(Math.max(1, left / 1_000_000));
            }
            if (running == null) return error == null ? Outcome.TIMED_OUT : Outcome.FAILED;
        }
        boolean converged = live.awaitConverged(Math.max(0, deadline - System.nanoTime()));
        HostStatus status = status();
        reporter.flush(etcd.options().connectTimeout());
        if (!converged) return Outcome.TIMED_OUT;
        boolean failed = live.stats().stream().anyMatch(r -> r.last() != null && r.last().status() == Status.FAILED);
        return failed || !status.getError().isEmpty() ? Outcome.FAILED : Outcome.CONVERGED;
    }

    /** The host status now, as written to etcd: for {@code --once} to tell what failed. */
    public HostStatus currentStatus() {
        return status();
    }

    /**
     * Stops following, stops the run (checks and applies under way finish first), and revokes the lease, so
     * the host's alive key and exports disappear at once.
     */
    @Override
    public void close() throws InterruptedException, IOException {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        if (pointerWatch != null) pointerWatch.close();
        if (renewals != null) renewals.close();
        if (applier != null) applier.join();
        live.close();
        reporter.close();
        registration.close();
        world.close();
    }

    private static String brief(String sha) {
        return sha.length() > 12 ? sha.substring(0, 12) : sha;
    }

    private static String version() {
        String version = Agent.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }
}
