package io.muster.coordinator;

import io.muster.agent.bundle.LocalBundles;
import io.muster.coordinator.auth.CertificateRotator;
import io.muster.coordinator.auth.ExportWarden;
import io.muster.coordinator.auth.RegistrationWarden;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code muster coordinator}: campaigns to lead (several coordinators may run; one leads) and, while it leads,
 * compiles and publishes each host's graph ({@link Leader}). When etcd is away or the lead is lost it steps
 * down, waits a jittered, growing while ({@link Backoff}) and campaigns again.
 */
public final class Coordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

    private final Etcd etcd;
    private final CoordinatorOptions options;
    private final HostCompiler compiler;
    private final Thread thread;
    private final CompletableFuture<Void> closing = new CompletableFuture<>();
    private volatile Term term;
    private CertificateRotator rotation; // null: hosts' certificates are not rotated by this coordinator

    public Coordinator(Etcd etcd, CoordinatorOptions options, GraphEncoder encoder) throws IOException {
        this(etcd, options, encoder, CompileTimes.NONE);
    }

    /** @param times told how long each compile took (while this coordinator leads: only the leader compiles) */
    public Coordinator(Etcd etcd, CoordinatorOptions options, GraphEncoder encoder, CompileTimes times) throws IOException {
        this.etcd = etcd;
        this.options = options;
        ContentStore store = new ContentStore(etcd);
        BundleCache bundles = new BundleCache(etcd, LocalBundles.withManifests(options.stateDir().resolve("bundles"), store));
        this.compiler = new HostCompiler(bundles, encoder, Clock.systemUTC(), times);
        this.thread = Thread.ofPlatform().name("muster-coordinator").unstarted(this::loop);
    }

    /** While it leads, it also rotates the hosts' certificates with {@code rotation}; before {@link #start}. */
    public Coordinator rotatingCertificates(CertificateRotator rotation) {
        this.rotation = rotation;
        return this;
    }

    public Coordinator start() {
        thread.start();
        return this;
    }

    /** Its name in the election. */
    public String name() {
        return options.name();
    }

    /** Whether this coordinator leads now. */
    public boolean leading() {
        Term now = term;
        return now != null && !now.ended();
    }

    private void loop() {
        Backoff backoff = Backoff.forCoordinator();
        try (Leadership leadership = new Leadership(etcd, options.name(), options.leaseTtl(), closing)) {
            while (!closing.isDone()) {
                try {
                    Term won = leadership.campaign();
                    if (won == null) break; // closed while waiting in line
                    term = won;
                    closing.thenRun(() -> won.end("closed")); // at once if it closed meanwhile
                    LOG.info("{} leads", options.name());
                    backoff.reset();
                    Thread rotating = rotation == null ? null : Thread.ofVirtual().name("certificate rotation").start(() -> rotation.lead(won, won.over()));
                    Thread exports = Thread.ofVirtual().name("export leases").start(() -> new ExportWarden(etcd, Clock.systemUTC()).lead(won, won.over()));
                    Thread registrations = Thread.ofVirtual().name("registrations").start(() -> new RegistrationWarden(etcd, Clock.systemUTC()).lead(won.over()));
                    String why;
                    try {
                        why = new Leader(etcd, won, compiler, options.compileThreads(), options.compactEvery()).run();
                    } finally {
                        won.end("stepped down");
                        if (rotating != null) rotating.join();
                        exports.join();
                        registrations.join();
                    }
                    if (!closing.isDone()) LOG.warn("{} no longer leads: {}", options.name(), why);
                } catch (EtcdUnreachableException e) {
                    if (!closing.isDone()) LOG.warn("{}", e.getMessage());
                } catch (RuntimeException e) {
                    LOG.error("coordinator failed; campaigning again: {}", e.toString(), e);
                } finally {
                    Term ended = term;
                    if (ended != null) ended.end("stepped down");
                    leadership.stepDown();
                }
                try {
                    closing.get(backoff.next().toMillis(), TimeUnit.MILLISECONDS); // a wait that close() ends
                } catch (TimeoutException | ExecutionException waited) {
                    // campaign again
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // nothing interrupts this thread but the JVM's end
        }
    }

    /** Leaves the election (the next in line leads at once) and stops. */
    @Override
    public void close() throws InterruptedException {
        closing.complete(null);
        thread.join(Duration.ofSeconds(30));
    }
}
