package io.muster.coordinator.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.proto.fleet.Deploy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LocalEtcd.class)
class DeployerTest {
    @TempDir
    Path dir;

    private Etcd etcd;

    @BeforeEach
    void connect(LocalEtcd local) throws Exception {
        etcd = Etcd.connect(EtcdOptions.of(local.endpoint(), LocalEtcd.uniqueNamespace("deployer"), Duration.ofSeconds(5)));
    }

    @AfterEach
    void close() {
        etcd.close();
    }

    private Bundle bundle(String site) throws Exception {
        Files.writeString(dir.resolve("site.yaml"), site);
        Files.writeString(dir.resolve("motd"), "hello\n");
        return new BundleReader(BundleReader.DEFAULT_MAX_BYTES, w -> {}).read(dir);
    }

    @Test
    void deploysGetIdsFromOneInOrderAndUnchangedFilesAreStoredOnce() throws Exception {
        Deployer deployer = new Deployer(etcd, Clock.systemUTC());
        Deployer.Published first = deployer.publish(bundle("resources: []\n"), "first", "ann@build");
        assertThat(first).isEqualTo(new Deployer.Published(1, 2, 2));
        Deployer.Published second = deployer.publish(bundle("resources: []\n# changed\n"), "second", "bob@build");
        assertThat(second).as("only the changed manifest is stored").isEqualTo(new Deployer.Published(2, 1, 2));

        DeployHistory history = new DeployHistory(etcd);
        assertThat(history.current()).hasValue(2);
        List<Deploy> deploys = history.list();
        assertThat(deploys).extracting(Deploy::getId, Deploy::getMessage, Deploy::getWho)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "first", "ann@build"), org.assertj.core.groups.Tuple.tuple(2L, "second", "bob@build"));
        assertThat(deploys.get(1).getManifest()).isEqualTo("site.yaml");
        assertThat(deploys.get(1).getFilesList()).extracting(f -> f.getPath()).containsExactly("motd", "site.yaml");
        String motd = deploys.get(1).getFiles(0).getSha256();
        assertThat(new ContentStore(etcd).get(Keys.blob(motd))).hasValueSatisfying(v -> assertThat(new String(v)).isEqualTo("hello\n"));
        assertThat(deploys.get(1).getFiles(0).getCompileOnly()).isFalse();
    }

    @Test
    void manifestsAndDataAreStoredWhereOnlyCoordinatorsReadAndOtherFilesAsBlobs() throws Exception {
        Files.writeString(dir.resolve("hosts.YML"), "web1: {password: s3cret}\n");
        Deploy deploy = new DeployHistory(etcd).get(new Deployer(etcd, Clock.systemUTC()).publish(bundle("resources: []\n"), "m", "t@h").id()).orElseThrow();

        ContentStore store = new ContentStore(etcd);
        for (io.muster.proto.fleet.BundleFile file : deploy.getFilesList()) {
            boolean manifest = !file.getPath().equals("motd");
            assertThat(file.getCompileOnly()).as(file.getPath()).isEqualTo(manifest);
            assertThat(store.contains(Keys.manifest(file.getSha256()))).as(file.getPath() + " in manifests/").isEqualTo(manifest);
            assertThat(store.contains(Keys.blob(file.getSha256()))).as(file.getPath() + " in blobs/").isEqualTo(!manifest);
        }
    }

    @Test
    void concurrentDeploysGetDistinctIdsAndTheLastIsCurrent() throws Exception {
        Bundle bundle = bundle("resources: []\n");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Long>> ids = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                int n = i;
                ids.add(pool.submit(() -> new Deployer(etcd, Clock.systemUTC()).publish(bundle, "deploy " + n, "t@h").id()));
            }
            List<Long> got = new ArrayList<>();
            for (Future<Long> id : ids) got.add(id.get());
            assertThat(got).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
        } finally {
            pool.shutdownNow();
        }
        DeployHistory history = new DeployHistory(etcd);
        assertThat(history.list()).hasSize(12);
        assertThat(history.current()).hasValue(12);
        assertThat(history.last()).isEqualTo(12);
    }

    @Test
    void rollbackMakesThePreviousOrAGivenDeployCurrent() throws Exception {
        Deployer deployer = new Deployer(etcd, Clock.systemUTC());
        DeployHistory history = new DeployHistory(etcd);
        assertThat(history.current()).isEmpty();
        assertThatThrownBy(() -> history.rollback(OptionalLong.empty())).hasMessage("nothing to roll back: no deploy yet");
        for (int i = 1; i <= 3; i++) deployer.publish(bundle("resources: []\n# " + i + "\n"), "d" + i, "t@h");

        assertThat(history.rollback(OptionalLong.empty())).isEqualTo(new DeployHistory.Rollback(3, 2));
        assertThat(history.rollback(OptionalLong.empty())).as("again: one further back").isEqualTo(new DeployHistory.Rollback(2, 1));
        assertThat(history.current()).hasValue(1);
        assertThatThrownBy(() -> history.rollback(OptionalLong.empty())).hasMessage("nothing to roll back to: deploy 1 is the first");
        assertThat(history.rollback(OptionalLong.of(3))).isEqualTo(new DeployHistory.Rollback(1, 3));
        long written = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY)).getKvs().getFirst().getModRevision();
        assertThat(history.rollback(OptionalLong.of(3))).isEqualTo(new DeployHistory.Rollback(3, 3));
        assertThat(etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY)).getKvs().getFirst().getModRevision()).as("not rewritten").isEqualTo(written);
        assertThatThrownBy(() -> history.rollback(OptionalLong.of(7))).hasMessage("no deploy 7 (see muster deploys)");
        assertThat(deployer.publish(bundle("resources: []\n# 4\n"), "d4", "t@h").id()).as("ids keep rising after a rollback").isEqualTo(4);
        assertThat(history.current()).hasValue(4);
    }
}
