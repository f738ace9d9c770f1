package io.muster.coordinator;

import io.muster.agent.bundle.LocalBundles;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.deploy.DeployHistory;
import io.muster.proto.fleet.BundleFile;
import io.muster.proto.fleet.Deploy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The deploys' bundles laid out on the coordinator's disk ({@link LocalBundles}), each once: every host of a
 * deploy compiles from the same tree. The last few deploys are remembered (a rollback goes back to one).
 */
final class BundleCache {
    private static final int REMEMBERED = 8;

    private final DeployHistory history;
    private final LocalBundles bundles;
    private final Map<Long, Path> manifests = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Path> eldest) {
            return size() > REMEMBERED;
        }
    };

    BundleCache(Etcd etcd, LocalBundles bundles) {
        this.history = new DeployHistory(etcd);
        this.bundles = bundles;
    }

    /**
     * The root manifest of deploy {@code id}, in its bundle's tree.
     *
     * @throws IOException when the deploy is missing or its bundle cannot be laid out
     */
    synchronized Path manifest(long id) throws IOException, EtcdUnreachableException {
        Path manifest = manifests.get(id);
        if (manifest != null) return manifest;
        Deploy deploy = history.get(id).orElseThrow(() -> new IOException("deploy " + id + " is missing from etcd"));
        Map<String, String> files = new LinkedHashMap<>();
        for (BundleFile f : deploy.getFilesList()) files.put(f.getPath(), f.getSha256());
        manifest = bundles.tree(files).resolve(deploy.getManifest());
        manifests.put(id, manifest);
        return manifest;
    }
}
