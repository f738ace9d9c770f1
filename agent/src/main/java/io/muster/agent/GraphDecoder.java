package io.muster.agent;

import io.muster.engine.graph.Graph;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Turns a compiled graph as the coordinator published it ({@code graphs/<sha256>}) back into a runnable
 * {@link Graph}: the seam to the graph codec, which the agent does not know otherwise.
 */
public interface GraphDecoder {
    /**
     * A graph's bundle as a host lays it out.
     *
     * @param files what the graph reads at run time: bundle-relative path → sha256 of the content
     * @param directories its manifests' directories (bundle-relative), which must exist even when empty
     */
    record BundleLayout(Map<String, String> files, Set<String> directories) {
        /** What of its bundle {@code graph} needs where it runs. */
        static BundleLayout of(Graph graph) {
            return new BundleLayout(graph.bundle().files(), graph.bundle().directories());
        }
    }

    /**
     * The runnable graph, its files found under {@code bundleRoot} (laid out as its {@link BundleLayout} says).
     *
     * @throws UnusableGraphException saying why it cannot run here (an unknown kind, a malformed value)
     */
    Graph decode(byte[] graph, Path bundleRoot) throws UnusableGraphException;

    /** A graph this agent cannot run: the message is what the host's status shows. */
    final class UnusableGraphException extends Exception {
        public UnusableGraphException(String message) {
            super(message);
        }

        public UnusableGraphException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
