package io.muster.agent.testing;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.Keys;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.compile.CompileOptions;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.graph.Graph;
import io.muster.proto.fleet.GraphPointer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Publishing graphs as the coordinator does, for agent tests: compiled, encoded, stored by content with their bundle files. */
public final class Graphs {
    private Graphs() {}

    /**
     * Compiles {@code yaml}, written as {@code site.yaml} into {@code bundle} (created; the files it reads are
     * there too), stores the graph for {@code host} and its bundle files, and returns the graph's sha256.
     */
    public static String publish(Etcd etcd, String host, Path bundle, String yaml) throws Exception {
        Files.createDirectories(bundle);
        Path manifest = Files.writeString(bundle.resolve("site.yaml"), yaml);
        Graph graph = new ManifestCompiler(new CompileOptions(Map.of(), Map.of(), Map.of())).compile(manifest);
        ContentStore store = new ContentStore(etcd);
        for (Map.Entry<String, String> file : graph.bundle().files().entrySet()) {
            store.put(Keys.blob(file.getValue()), Files.readAllBytes(bundle.resolve(file.getKey())));
        }
        GraphCodec.Encoded encoded = GraphCodec.encode(graph);
        store.put(Keys.graph(host, encoded.sha256()), encoded.bytes());
        return encoded.sha256();
    }

    /** Points {@code host} at a graph, as the coordinator does. */
    public static void point(Etcd etcd, String host, GraphPointer pointer) throws Exception {
        etcd.await(etcd.kv().put(Keys.graphPointer(host), ByteSequence.from(pointer.toByteArray())));
    }
}
