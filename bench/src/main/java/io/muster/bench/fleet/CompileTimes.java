package io.muster.bench.fleet;

import io.muster.coordinator.deploy.HostTarget;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.graph.Graph;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The coordinator's per-host compile, timed host by host: what HostCompiler does for a host, from the facts
 * as its agent stored them to the encoded graph ({@link HostTarget}, {@link ManifestCompiler},
 * {@link GraphCodec}), without the one etcd put of the graph that follows. The coordinator does not time its
 * compiles itself, so they are repeated here, in this JVM, after the agents are gone: one pass to warm up,
 * then the timed pass.
 */
final class CompileTimes {
    private CompileTimes() {}

    /** Median and maximum per host of the timed pass, in ms. */
    record Times(double medianMs, double maxMs) {}

    static Times of(Path manifest, Map<String, byte[]> facts) throws Exception {
        compileAll(manifest, facts);
        double[] ms = compileAll(manifest, facts);
        Arrays.sort(ms);
        return new Times(ms[ms.length / 2], ms[ms.length - 1]);
    }

    private static double[] compileAll(Path manifest, Map<String, byte[]> facts) throws Exception {
        double[] ms = new double[facts.size()];
        int i = 0;
        for (Map.Entry<String, byte[]> host : facts.entrySet()) {
            long start = System.nanoTime();
            Graph graph = new ManifestCompiler(HostTarget.of(host.getKey(), host.getValue()).options()).compile(manifest);
            GraphCodec.encode(graph);
            ms[i++] = (System.nanoTime() - start) / 1e6;
        }
        return ms;
    }
}
