package io.muster.coordinator;

import io.muster.agent.bundle.LocalBundles;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.deploy.DeployHistory;
import io.muster.engine.manifest.ParsedManifests;
import io.muster.proto.fleet.BundleFile;
import io.muster.proto.fleet.Deploy;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Keys;
import io.muster.engine.graph.Graph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deploys' bundles laid out on the coordinator's disk ({@link LocalBundles}), each once: every host of a
 * deploy compiles from the same tree, and from the same reading of its manifests ({@link ParsedManifests}: a tree
 * is named by its content and never changes). The last few deploys are remembered (a rollback goes back to one).
 */
final class BundleCache {
    private static final int REMEMBERED = 8;

    private final DeployHistory history;
    private final LocalBundles bundles;
    private final ContentStore store;
    /** Manifest and data files (by sha256) known to be stored as blobs too, as a graph named them. */
    private final Set<String> shipped = ConcurrentHashMap.newKeySet();

    /**
     * A deploy's tree on disk, its root manifest in it, its manifests as read so far, and the bundle-relative
     * paths of its manifest and data files (which hosts do not read, unless a graph names one).
     */
    record Tree(Path root, Path manifest, ParsedManifests parsed, Map<String, String> compileOnly) {}

    private final Map<Long, Tree> trees = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Tree> eldest) {
            return size() > REMEMBERED;
        }
    };

    BundleCache(Etcd etcd, LocalBundles bundles) {
        this.history = new DeployHistory(etcd);
        this.bundles = bundles;
        this.store = new ContentStore(etcd);
    }

    /**
     * Deploy {@code id}'s bundle tree: its root manifest, and the manifests read by the compiles of it so far.
     *
     * @throws IOException when the deploy is missing or its bundle cannot be laid out
     */
    synchronized Tree tree(long id) throws IOException, EtcdUnreachableException {
        Tree known = trees.get(id);
        if (known != null) return known;
        Deploy deploy = history.get(id).orElseThrow(() -> new IOException("deploy " + id + " is missing from etcd"));
        Map<String, String> files = new LinkedHashMap<>();
        Map<String, String> compileOnly = new HashMap<>();
        for (BundleFile f : deploy.getFilesList()) {
            files.put(f.getPath(), f.getSha256());
            if (f.getCompileOnly()) compileOnly.put(f.getPath(), f.getSha256());
        }
        Path root = bundles.tree(files);
        Tree tree = new Tree(root, root.resolve(deploy.getManifest()), new ParsedManifests(), Map.copyOf(compileOnly));
        trees.put(id, tree);
        return tree;
    }

    /**
     * Stores as blobs, which hosts read, the manifest and data files of {@code tree} that {@code graph} names (a
     * file resource whose source is one): its host must find them. Before the graph's pointer is written.
     */
    void ship(Tree tree, Graph graph) throws IOException, EtcdUnreachableException {
        for (Map.Entry<String, String> file : graph.bundle().files().entrySet()) {
            String sha = tree.compileOnly().get(file.getKey());
            if (sha == null || !sha.equals(file.getValue()) || shipped.contains(sha)) continue;
            store.put(Keys.blob(sha), Files.readAllBytes(tree.root().resolve(file.getKey())));
            shipped.add(sha);
        }
    }
}
