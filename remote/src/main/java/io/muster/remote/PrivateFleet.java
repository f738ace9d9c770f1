package io.muster.remote;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.DeleteOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.Coordinator;
import io.muster.coordinator.CoordinatorOptions;
import io.muster.coordinator.GraphEncoder;
import io.muster.coordinator.auth.FleetAuth;
import io.muster.coordinator.auth.FleetPki;
import io.muster.coordinator.deploy.Bundle;
import io.muster.coordinator.deploy.DeployException;
import io.muster.coordinator.deploy.Deployer;
import io.muster.coordinator.dev.DevEtcd;
import io.muster.coordinator.status.FleetStatus;
import io.muster.coordinator.status.HostView;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.util.FileTrees;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The short-lived fleet of one {@code muster remote} run: an etcd (a private one, as {@code coordinator --dev} starts,
 * or a namespace of its own in the etcd of {@code --etcd}, so a real fleet's deploys and hosts are never touched), the
 * run's manifest deployed there, and a coordinator in this process that compiles each host's graph with the facts its
 * agent publishes. Closing it leaves nothing: the namespace's keys are deleted, the private etcd stopped, its data and
 * the coordinator's bundles removed.
 *
 * <p>The private etcd serves TLS and takes clients by certificate only, as {@code coordinator --dev}'s: a CA made for
 * the run (gone with it) signs etcd's certificate, for 127.0.0.1 where the hosts' tunnels arrive, the coordinator's
 * and one per host ({@link #admit}), whose etcd user may write that host's keys only. On an {@code https://} etcd of
 * {@code --etcd} the fleet's CA (the coordinator's {@code --pki}) signs the hosts' certificates, and their users and
 * roles, named after the run and confined to its namespace, are deleted with it.
 */
public final class PrivateFleet implements AutoCloseable {
    /** The engine's canonical encoding, as the coordinator daemon's: equal graphs are stored once. */
    private static final GraphEncoder ENCODER = graph -> {
        GraphCodec.Encoded encoded = GraphCodec.encode(graph);
        return new GraphEncoder.Encoded(encoded.bytes(), encoded.sha256());
    };
    /** The coordinator's lease: it is alone in the run's namespace, and a killed run's leadership expires soon. */
    private static final Duration LEASE_TTL = Duration.ofSeconds(5);

    private final Path dir;
    private final DevEtcd privateEtcd;
    private final HostCertificates hosts;
    private final Etcd etcd;
    private final Coordinator coordinator;

    private PrivateFleet(Path dir, DevEtcd privateEtcd, HostCertificates hosts, Etcd etcd, Coordinator coordinator) {
        this.dir = dir;
        this.privateEtcd = privateEtcd;
        this.hosts = hosts;
        this.etcd = etcd;
        this.coordinator = coordinator;
    }

    /**
     * Starts the run's fleet.
     *
     * @param shared the etcd of {@code --etcd}, whose namespace the run's own goes under ({@code NAMESPACEremote/RUN/}); null
     *        for a private etcd on a free loopback port
     * @param fleetPki for an {@code https://} shared etcd: the directory of the fleet's CA, which signs the hosts' certificates
     * @param run the run's id (lower-case letters, digits and '-'), unique among runs sharing an etcd
     * @throws IOException naming --pki when a shared {@code https://} etcd is given and there is no CA to sign with
     */
    public static PrivateFleet start(EtcdOptions shared, Path fleetPki, String run, Duration connectTimeout)
            throws IOException, EtcdUnreachableException, InterruptedException {
        Path dir = Files.createTempDirectory("muster-remote-"); // 0700: the run's CA and keys are written in it
        DevEtcd privateEtcd = null;
        HostCertificates hosts = null;
        Etcd etcd = null;
        try {
            EtcdOptions options;
            if (shared == null) {
                URI endpoint = URI.create("https://127.0.0.1:" + freePort());
                FleetPki pki = FleetPki.openOrCreate(dir.resolve("pki"), List.of(endpoint));
                privateEtcd = DevEtcd.start(endpoint, dir.resolve("etcd"), pki.etcdFlags());
                options = new EtcdOptions(List.of(endpoint), EtcdOptions.DEFAULT_NAMESPACE, connectTimeout);
                Etcd root = Etcd.connect(options.withTls(pki.tls(FleetPki.ROOT)));
                FleetAuth auth = new FleetAuth(root);
                hosts = new HostCertificates(pki, pki.caFile(), root, auth, false, dir.resolve("hosts"));
                auth.setUp();
                options = options.withTls(pki.tls(FleetPki.COORDINATOR));
            } else {
                options = new EtcdOptions(shared.endpoints(), shared.namespace() + "remote/" + run + "/", connectTimeout, shared.tls());
                if (shared.tls() != null) {
                    FleetPki pki = fleetCa(shared, fleetPki);
                    boolean own = shared.tls().certificate() != null; // --etcd-cert: the operator's, as etcd's root
                    Etcd root = Etcd.connect(own ? options : options.withTls(pki.tls(FleetPki.ROOT)));
                    FleetAuth auth = FleetAuth.forRun(root, run);
                    hosts = new HostCertificates(pki, shared.tls().ca() != null ? shared.tls().ca() : pki.caFile(), root, auth, true, dir.resolve("hosts"));
                    setUpAsRoot(auth, root);
                    if (!own) options = options.withTls(pki.tls(FleetPki.COORDINATOR));
                }
            }
            etcd = Etcd.connect(options);
            CoordinatorOptions coordinator = new CoordinatorOptions("muster-remote-" + run, LEASE_TTL,
                    Runtime.getRuntime().availableProcessors() * 4, dir.resolve("coordinator"), CoordinatorOptions.DEFAULT_COMPACT_EVERY);
            return new PrivateFleet(dir, privateEtcd, hosts, etcd, new Coordinator(etcd, coordinator, ENCODER).start());
        } catch (IOException | EtcdUnreachableException | InterruptedException | RuntimeException e) {
            if (etcd != null) etcd.close();
            if (hosts != null) hosts.close();
            if (privateEtcd != null) privateEtcd.close();
            FileTrees.delete(dir);
            throw e;
        }
    }

    /** The fleet's CA in {@code dir}, which an {@code https://} etcd's hosts need their certificates from. */
    private static FleetPki fleetCa(EtcdOptions shared, Path dir) throws IOException {
        if (dir == null || !FleetPki.hasCa(dir)) {
            throw new IOException("--etcd " + shared.describe() + ": the hosts' agents need client certificates, and there is no fleet CA in "
                    + (dir == null ? "--pki" : dir) + " to make them (give --pki, the coordinator's certificate directory, or no --etcd for a private etcd)");
        }
        return FleetPki.openOrCreate(dir, shared.endpoints());
    }

    /** The run's hosts' role, made as etcd's root: a refusal says whose certificate was used. */
    private static void setUpAsRoot(FleetAuth auth, Etcd root) throws EtcdUnreachableException {
        try {
            auth.setUpHosts();
        } catch (EtcdUnreachableException e) {
            throw new EtcdUnreachableException("cannot make the run's etcd users as root (" + root.options().tls().flags() + "): " + e.getMessage(), e);
        }
    }

    /**
     * Lets {@code host} into the fleet: its etcd user and a client certificate of its own for its agent. Null when
     * the fleet's etcd is {@code http://} (a shared one without TLS): there is nothing to log in with.
     */
    public EtcdTls admit(String host) throws EtcdUnreachableException, IOException {
        return hosts == null ? null : hosts.admit(host);
    }

    /** Deploys {@code bundle}: the hosts' agents converge to it once they register. Returns the deploy's id. */
    public long deploy(Bundle bundle, String who) throws EtcdUnreachableException, DeployException {
        return new Deployer(etcd, Clock.systemUTC()).publish(bundle, "muster remote", who).id();
    }

    /** The etcd the hosts' tunnels lead to: its first endpoint, as this machine reaches it. */
    public URI endpoint() {
        return etcd.options().endpoints().getFirst();
    }

    /** The namespace the run's keys are under. */
    public String namespace() {
        return etcd.options().namespace();
    }

    /** The host as the fleet knows it (what its agent last reported, its graph's compile error); null when it never registered. */
    public HostView host(String name) throws EtcdUnreachableException {
        return FleetStatus.read(etcd, name).hosts().stream().findFirst().orElse(null);
    }

    /** Removes the hosts' users from a shared etcd; one left behind is reported, and grants nothing outside the run's namespace. */
    private void closeHosts() throws IOException {
        if (hosts == null) return;
        try {
            hosts.close();
        } catch (EtcdUnreachableException e) {
            throw new IOException("could not delete the run's etcd users: " + e.getMessage(), e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Stops the coordinator, deletes the run's keys and hosts' users from a shared etcd or stops the private one, and
     * removes its files (the run's CA and certificates among them).
     */
    @Override
    public void close() throws InterruptedException, IOException {
        try {
            coordinator.close();
            if (privateEtcd == null) {
                ByteSequence all = ByteSequence.from(new byte[] {0}); // from the namespace's first key to its last
                etcd.await(etcd.kv().delete(all, DeleteOption.builder().withRange(all).build()));
            }
        } catch (EtcdUnreachableException e) {
            throw new IOException("could not delete the run's keys under " + namespace() + ": " + e.getMessage(), e);
        } finally {
            etcd.close();
            try {
                closeHosts();
            } finally {
                if (privateEtcd != null) privateEtcd.close();
                FileTrees.delete(dir);
            }
        }
    }
}
