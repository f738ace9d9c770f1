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
import java.time.Clock;
import java.time.Duration;
import java.util.stream.Collectors;

/**
 * Compiles one host's graph for a deploy, with the facts its agent published and no environment
 * ({@link HostTarget#options()}), and says what the host's pointer should become and which graph it names
 * ({@link PointerWriter} stores the graph under the host, and the pointer), a manifest or data file the graph
 * names stored where hosts read it ({@link BundleCache#ship}). A
 * compile that fails keeps the host's previous graph and carries the errors, each FILE:LINE:COL: message with
 * FILE relative to the bundle.
 */
final class HostCompiler {
    private final BundleCache bundles;
    private final GraphEncoder encoder;
    private final Clock clock;
    private final CompileTimes times;

    HostCompiler(BundleCache bundles, GraphEncoder encoder, Clock clock, CompileTimes times) {
        this.bundles = bundles;
        this.encoder = encoder;
        this.clock = clock;
        this.times = times;
    }

    /** A host's new pointer, and the encoded graph it names; null when the compile failed (the pointer says why). */
    record Compiled(GraphPointer pointer, GraphEncoder.Encoded graph) {}

    /**
     * @param facts the host's facts key as stored (fleet.Facts)
     * @param previous the host's pointer now; null before its first
     */
    Compiled compile(String host, byte[] facts, long deploy, GraphPointer previous) throws EtcdUnreachableException {
        GraphPointer.Builder pointer = GraphPointer.newBuilder().setDeploy(deploy).setFacts(ContentStore.sha256(facts))
                .setCompiled(clock.millis()).setGraph(previous == null ? "" : previous.getGraph());
        BundleCache.Tree tree;
        try {
            tree = bundles.tree(deploy);
        } catch (IOException e) {
            return failed(pointer.setError("deploy " + deploy + ": cannot lay out its bundle: " + e.getMessage()));
        }
        HostTarget target;
        try {
            target = HostTarget.of(host, facts);
        } catch (InvalidProtocolBufferException e) {
            return failed(pointer.setError(Keys.text(Keys.facts(host)) + ": not facts as an agent publishes them (" + e.getMessage() + ")"));
        }
        Graph graph;
        long started = System.nanoTime();
        try {
            graph = new ManifestCompiler(target.options().withManifests(tree.parsed())).compile(tree.manifest());
            times.compiled(Duration.ofNanos(System.nanoTime() - started), false);
        } catch (ManifestException e) {
            times.compiled(Duration.ofNanos(System.nanoTime() - started), true);
            String root = tree.manifest().getParent() + "/";
            return failed(pointer.setError(e.problems().stream().map(Problem::toString).map(p -> p.replace(root, ""))
                    .collect(Collectors.joining("\n"))));
        }
        try {
            bundles.ship(tree, graph);
        } catch (IOException e) {
            return failed(pointer.setError("deploy " + deploy + ": cannot store a bundle file its graph names: " + e.getMessage()));
        }
        GraphEncoder.Encoded encoded = encoder.encode(graph);
        return new Compiled(pointer.setGraph(encoded.sha256()).build(), encoded);
    }

    private static Compiled failed(GraphPointer.Builder pointer) {
        return new Compiled(pointer.build(), null);
    }
}
