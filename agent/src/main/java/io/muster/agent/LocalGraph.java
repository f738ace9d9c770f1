package io.muster.agent;

import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.agent.etcd.ContentStore;
import io.muster.engine.util.AtomicFiles;
import io.muster.proto.fleet.GraphPointer;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The last graph this host ran, on local disk, so that a restarted agent enforces it at once, even while
 * etcd is away: {@code graphs/<sha256>} holds the encoded graph and {@code current} its pointer (deploy,
 * sha256), each written whole (a temp file renamed over it), the graph before the pointer that names it.
 * Its bundle files are in the agent's {@link io.muster.agent.bundle.LocalBundles}.
 */
final class LocalGraph {
    private final Path dir;

    /** @param dir a private state directory of the agent's ({@code <prefix>/agent}) */
    LocalGraph(Path dir) {
        this.dir = dir;
    }

    /** Whether a graph was saved in {@code dir} (whole or not: {@link #load} tells). */
    static boolean exists(Path dir) {
        return Files.exists(dir.resolve("current"));
    }

    /** The graph and the pointer it was saved with. */
    record Saved(GraphPointer pointer, byte[] graph) {}

    /** The saved graph, or empty when none was saved (or what is there is not whole: it is then not run). */
    Optional<Saved> load() throws IOException {
        byte[] current = AtomicFiles.readPrivate(dir.resolve("current"));
        if (current == null) return Optional.empty();
        GraphPointer pointer;
        try {
            pointer = GraphPointer.parseFrom(current);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException(dir.resolve("current") + ": not a graph pointer (" + e.getMessage() + ")");
        }
        byte[] graph = AtomicFiles.readPrivate(graphs().resolve(pointer.getGraph()));
        if (graph == null || !ContentStore.sha256(graph).equals(pointer.getGraph())) {
            throw new IOException(graphs().resolve(pointer.getGraph()) + ": missing, or not the graph " + pointer.getGraph());
        }
        return Optional.of(new Saved(pointer, graph));
    }

    /** Saves {@code graph} as the one to run, and forgets the one before. */
    void save(GraphPointer pointer, byte[] graph) throws IOException {
        AtomicFiles.writePrivate(graphs().resolve(pointer.getGraph()), graph);
        AtomicFiles.writePrivate(dir.resolve("current"), pointer.toByteArray());
        try (DirectoryStream<Path> saved = Files.newDirectoryStream(graphs())) {
            for (Path old : saved) {
                if (!old.getFileName().toString().equals(pointer.getGraph())) Files.deleteIfExists(old);
            }
        }
    }

    /** Records that the graph saved already runs as {@code pointer}'s deploy now. */
    void saveDeploy(GraphPointer pointer) throws IOException {
        AtomicFiles.writePrivate(dir.resolve("current"), pointer.toByteArray());
    }

    private Path graphs() {
        return dir.resolve("graphs");
    }
}
