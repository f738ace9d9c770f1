package io.muster.coordinator;

import io.muster.agent.bundle.LocalBundles;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.deploy.DeployHistory;
import io.muster.engine.manifest.ParsedManifests;
import io.muster.proto.fleet.BundleFile;
import io.muster.proto.fleet.Deploy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The deploys' bundles laid out on the coordinator's disk ({@link LocalBundles}), each once: every host of a
 * deploy compiles from the same tree, and from the same reading of its manifests ({@link ParsedManifests}: a tree
 * is named by its content and never changes). The last few deploys are remembered (a rollback goes back to one).
 */
final class BundleCache {
    private static final int REMEMBERED = 8;

    private final DeployHistory history;
    private final LocalBundles bundles;
    /** A deploy's root manifest in its tree, and its manifests as read so far. */
    record Tree(Path manifest, ParsedManifests parsed) {}

    private final Map<Long, Tree> trees = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Tree> eldest) {
            return size() > REMEMBERED;
        }
    };

    BundleCache(Etcd etcd, LocalBundles bundles) {
        this.history = new DeployHistory(etcd);
        this.bundles = bundles;
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
        for (BundleFile f : deploy.getFilesList()) files.put(f.getPath(), f.getSha256());
        Tree tree = new Tree(bundles.tree(files).resolve(deploy.getManifest()), new ParsedManifests());
        trees.put(id, tree);
        return tree;
    }
}
