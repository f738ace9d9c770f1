package io.muster.remote;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.DeleteOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.Coordinator;
import io.muster.coordinator.CoordinatorOptions;
import io.muster.coordinator.GraphEncoder;
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

/**
 * The short-lived fleet of one {@code muster remote} run: an etcd (a private one, as {@code coordinator --dev} starts,
 * or a namespace of its own in the etcd of {@code --etcd}, so a real fleet's deploys and hosts are never touched), the
 * run's manifest deployed there, and a coordinator in this process that compiles each host's graph with the facts its
 * agent publishes. Closing it leaves nothing: the namespace's keys are deleted, the private etcd stopped, its data and
 * the coordinator's bundles removed.
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
    private final Etcd etcd;
    private final Coordinator coordinator;

    private PrivateFleet(Path dir, DevEtcd privateEtcd, Etcd etcd, Coordinator coordinator) {
        this.dir = dir;
        this.privateEtcd = privateEtcd;
        this.etcd = etcd;
        this.coordinator = coordinator;
    }

    /**
     * Starts the run's fleet.
     *
     * @param shared the etcd of {@code --etcd}, whose namespace the run's own goes under ({@code NAMESPACEremote/RUN/}); null
     *        for a private etcd on a free loopback port
     * @param run the run's id, unique among runs sharing an etcd
     */
    public static PrivateFleet start(EtcdOptions shared, String run, Duration connectTimeout)
            throws IOException, EtcdUnreachableException, InterruptedException {
        Path dir = Files.createTempDirectory("muster-remote-");
        DevEtcd privateEtcd = null;
        Etcd etcd = null;
        try {
            EtcdOptions options;
            if (shared == null) {
                URI endpoint = URI.create("http://127.0.0.1:" + freePort());
                privateEtcd = DevEtcd.start(endpoint, dir.resolve("etcd"));
                options = new EtcdOptions(java.util.List.of(endpoint), EtcdOptions.DEFAULT_NAMESPACE, connectTimeout);
            } else {
                options = new EtcdOptions(shared.endpoints(), shared.namespace() + "remote/" + run + "/", connectTimeout);
            }
            etcd = Etcd.connect(options);
            CoordinatorOptions coordinator = new CoordinatorOptions("muster-remote-" + run, LEASE_TTL,
                    Runtime.getRuntime().availableProcessors() * 4, dir.resolve("coordinator"), CoordinatorOptions.DEFAULT_COMPACT_EVERY);
            return new PrivateFleet(dir, privateEtcd, etcd, new Coordinator(etcd, coordinator, ENCODER).start());
        } catch (IOException | EtcdUnreachableException | InterruptedException | RuntimeException e) {
            if (etcd != null) etcd.close();
            if (privateEtcd != null) privateEtcd.close();
            FileTrees.delete(dir);
            throw e;
        }
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

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Stops the coordinator, deletes the run's keys from a shared etcd or stops the private one, and removes its files. */
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
            if (privateEtcd != null) privateEtcd.close();
            FileTrees.delete(dir);
        }
    }
}
