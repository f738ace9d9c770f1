package io.muster.agent.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LocalEtcd.class)
class LocalBundlesTest {
    @TempDir
    Path dir;

    @Test
    void laysOutATreeFromTheStoreOnceAndReusesIt(LocalEtcd local) throws Exception {
        try (Etcd etcd = Etcd.connect(EtcdOptions.of(local.endpoint(), LocalEtcd.uniqueNamespace("bundles"), Duration.ofSeconds(5)))) {
            ContentStore store = new ContentStore(etcd);
            String site = put(store, "resources: []\n");
            String motd = put(store, "hello\n");
            LocalBundles bundles = new LocalBundles(dir.resolve("bundles"), store);

            Path tree = bundles.tree(Map.of("site.yaml", site, "files/motd", motd, "files/copy", motd));

            assertThat(tree.resolve("files/motd")).hasContent("hello");
            assertThat(tree.resolve("files/copy")).hasContent("hello");
            assertThat(tree.resolve("site.yaml")).hasContent("resources: []");
            assertThat(bundles.tree(Map.of("files/copy", motd, "site.yaml", site, "files/motd", motd))).isEqualTo(tree);
            assertThat(Files.list(tree.getParent()).map(p -> p.getFileName().toString())).containsExactly(tree.getFileName().toString());
        }
    }

    @Test
    void aPathLeavingTheBundleOrAMissingContentIsRefused(LocalEtcd local) throws Exception {
        try (Etcd etcd = Etcd.connect(EtcdOptions.of(local.endpoint(), LocalEtcd.uniqueNamespace("bundles"), Duration.ofSeconds(5)))) {
            ContentStore store = new ContentStore(etcd);
            LocalBundles bundles = new LocalBundles(dir.resolve("bundles"), store);
            String sha = put(store, "x");
            for (String bad : new String[] {"../etc/passwd", "/etc/passwd", "a//b", "a/./b", ""}) {
                assertThatThrownBy(() -> bundles.tree(Map.of(bad, sha))).hasMessageContaining("not a bundle-relative path");
            }
            String missing = ContentStore.sha256("never stored".getBytes(StandardCharsets.UTF_8));
            assertThatThrownBy(() -> bundles.tree(Map.of("f", missing))).hasMessageContaining("missing from etcd");
            assertThat(Files.list(dir.resolve("bundles/trees"))).isEmpty();
        }
    }

    private static String put(ContentStore store, String content) throws Exception {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        String sha = ContentStore.sha256(bytes);
        store.put(Keys.blob(sha), bytes);
        return sha;
    }
}
