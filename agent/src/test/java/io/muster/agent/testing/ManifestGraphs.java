package io.muster.agent.testing;

import io.muster.agent.GraphDecoder;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.engine.compile.CompileOptions;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.etcd.jetcd.ByteSequence;
import io.muster.proto.fleet.GraphPointer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Graphs for agent tests until the graph codec lands: the "encoded graph" is a manifest's YAML text, whose
 * {@code #file PATH SHA256} lines list the bundle files it reads; decoding compiles it, with {@code @BUNDLE@}
 * standing for the bundle's directory. Also publishes graphs and pointers as the coordinator does.
 */
public final class ManifestGraphs implements GraphDecoder {
    private final Path scratch;

    /** Writes decoded manifests to a new temporary directory: for agents run by the CLI ({@code META-INF/services}). */
    public ManifestGraphs() throws IOException {
        this(Files.createTempDirectory("muster-test-graphs-"));
    }

    /** @param scratch where decoded manifests are written to be compiled */
    public ManifestGraphs(Path scratch) {
        this.scratch = scratch;
    }

    @Override
    public Map<String, String> files(byte[] graph) {
        Map<String, String> files = new LinkedHashMap<>();
        for (String line : new String(graph, StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("#file ")) files.put(line.split(" ")[1], line.split(" ")[2]);
        }
        return files;
    }

    @Override
    public Graph decode(byte[] graph, Path bundleRoot) throws UnusableGraphException {
        try {
            Path manifest = Files.createTempFile(Files.createDirectories(scratch), "graph-", ".yaml");
            Files.writeString(manifest, new String(graph, StandardCharsets.UTF_8).replace("@BUNDLE@", bundleRoot.toString()));
            return new ManifestCompiler(new CompileOptions(Map.of(), Map.of(), Map.of())).compile(manifest);
        } catch (ManifestException e) {
            throw new UnusableGraphException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UnusableGraphException("cannot write the manifest: " + e.getMessage(), e);
        }
    }

    /** Stores {@code yaml} as a graph and returns its sha256. */
    public static String publishGraph(Etcd etcd, String yaml) throws EtcdUnreachableException {
        byte[] bytes = yaml.getBytes(StandardCharsets.UTF_8);
        String sha = ContentStore.sha256(bytes);
        new ContentStore(etcd).put(Keys.graph(sha), bytes);
        return sha;
    }

    /** Stores a bundle file and returns its sha256. */
    public static String publishFile(Etcd etcd, String content) throws EtcdUnreachableException {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        String sha = ContentStore.sha256(bytes);
        new ContentStore(etcd).put(Keys.blob(sha), bytes);
        return sha;
    }

    /** Points {@code host} at a graph, as the coordinator does. */
    public static void point(Etcd etcd, String host, GraphPointer pointer) throws EtcdUnreachableException {
        etcd.await(etcd.kv().put(Keys.graphPointer(host), ByteSequence.from(pointer.toByteArray())));
    }
}
