package io.muster.coordinator;

import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.deploy.HostTarget;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import io.muster.proto.fleet.GraphPointer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Compiles one host's graph for a deploy, with the facts its agent published and no environment
 * ({@link HostTarget#options()}), stores it by content (hosts with equal graphs share it) and
 * says what the host's pointer should become. A compile that fails keeps the host's previous graph and
 * carries the errors, each FILE:LINE:COL: message with FILE relative to the bundle.
 */
final class HostCompiler {
    private final BundleCache bundles;
    private final GraphEncoder encoder;
    private final ContentStore store;
    private final Clock clock;
    /** Graphs known to be stored: hosts sharing a graph cost one look-up in etcd, not one each. */
    private final Set<String> stored = ConcurrentHashMap.newKeySet();

    HostCompiler(BundleCache bundles, GraphEncoder encoder, ContentStore store, Clock clock) {
        this.bundles = bundles;
        this.encoder = encoder;
        this.store = store;
        this.clock = clock;
    }

    /**
     * @param facts the host's facts key as stored (fleet.Facts)
     * @param previous the host's pointer now; null before its first
     */
    GraphPointer compile(String host, byte[] facts, long deploy, GraphPointer previous) throws EtcdUnreachableException {
        GraphPointer.Builder pointer = GraphPointer.newBuilder().setDeploy(deploy).setFacts(ContentStore.sha256(facts))
                .setCompiled(clock.millis()).setGraph(previous == null ? "" : previous.getGraph());
        Path manifest;
        try {
            manifest = bundles.manifest(deploy);
        } catch (IOException e) {
            return pointer.setError("deploy " + deploy + ": cannot lay out its bundle: " + e.getMessage()).build();
        }
        HostTarget target;
        try {
            target = HostTarget.of(host, facts);
        } catch (InvalidProtocolBufferException e) {
            return pointer.setError(Keys.text(Keys.facts(host)) + ": not facts as an agent publishes them (" + e.getMessage() + ")").build();
        }
        Graph graph;
        try {
            graph = new ManifestCompiler(target.options()).compile(manifest);
        } catch (ManifestException e) {
            String root = manifest.getParent() + "/";
            return pointer.setError(e.problems().stream().map(Problem::toString).map(p -> p.replace(root, ""))
                    .collect(Collectors.joining("\n"))).build();
        }
        GraphEncoder.Encoded encoded = encoder.encode(graph);
        if (!stored.contains(encoded.sha256())) {
            store.put(Keys.graph(encoded.sha256()), encoded.bytes());
            if (stored.size() > 100_000) stored.clear(); // bounded: a coordinator that runs for years sees many graphs
            stored.add(encoded.sha256());
        }
        return pointer.setGraph(encoded.sha256()).build();
    }
}
