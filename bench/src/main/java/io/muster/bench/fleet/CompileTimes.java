package io.muster.bench.fleet;

import io.muster.coordinator.deploy.HostTarget;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.compile.CompileOptions;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestSource;
import io.muster.engine.manifest.ParsedManifests;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The coordinator's per-host compile, timed host by host: what HostCompiler does for a host, from the facts
 * as its agent stored them to the encoded graph ({@link HostTarget}, {@link ManifestCompiler} reading the
 * deploy's manifests once for all hosts, {@link GraphCodec}), without the one etcd put of the graph that follows.
 * The coordinator does not time its compiles itself, so they are repeated here, in this JVM, after the agents are
 * gone: one pass to warm up, then the timed pass. Beside the wall times, the CPU time of this thread per host
 * (which the machine's other load does not inflate) for the compile and for the encoding, and for the compile
 * with each host reading the YAML itself, as the coordinator did before it shared one reading per deploy.
 */
final class CompileTimes {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CompileTimes() {}

    /** Median and maximum wall time per host of the timed pass, and CPU time per host of its parts, in ms. */
    record Times(double medianMs, double maxMs, double compileCpuMs, double encodeCpuMs, double unsharedCompileCpuMs) {}

    static Times of(Path manifest, Map<String, byte[]> facts) throws Exception {
        compileAll(manifest, facts, ParsedManifests::new);
        Pass unshared = compileAll(manifest, facts, () -> ManifestSource.FILES);
        Pass timed = compileAll(manifest, facts, ParsedManifests::new);
        double[] ms = timed.wallMs;
        Arrays.sort(ms);
        int n = facts.size();
        return new Times(ms[n / 2], ms[n - 1], timed.compileCpuNanos / 1e6 / n, timed.encodeCpuNanos / 1e6 / n,
                unshared.compileCpuNanos / 1e6 / n);
    }

    private record Pass(double[] wallMs, long compileCpuNanos, long encodeCpuNanos) {}

    /** Every host once, with one {@code source} of YAML for the pass (the coordinator has one per deploy). */
    private static Pass compileAll(Path manifest, Map<String, byte[]> facts, Supplier<ManifestSource> source) throws Exception {
        ManifestSource manifests = source.get();
        double[] ms = new double[facts.size()];
        long compileCpu = 0;
        long encodeCpu = 0;
        int i = 0;
        for (Map.Entry<String, byte[]> host : facts.entrySet()) {
            long start = System.nanoTime();
            long cpu = THREADS.getCurrentThreadCpuTime();
            CompileOptions options = HostTarget.of(host.getKey(), host.getValue()).options().withManifests(manifests);
            Graph graph = new ManifestCompiler(options).compile(manifest);
            long compiled = THREADS.getCurrentThreadCpuTime();
            GraphCodec.encode(graph);
            long encoded = THREADS.getCurrentThreadCpuTime();
            compileCpu += compiled - cpu;
            encodeCpu += encoded - compiled;
            ms[i++] = (System.nanoTime() - start) / 1e6;
        }
        return new Pass(ms, compileCpu, encodeCpu);
    }
}
