package io.muster.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.coordinator.deploy.Bundle;
import io.muster.coordinator.deploy.BundleReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The run's own fleet: a private etcd that is gone afterwards, or a namespace of a shared etcd that is deleted afterwards. */
@ExtendWith(LocalEtcd.class)
class PrivateFleetTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private Bundle bundle() throws Exception {
        Files.writeString(dir.resolve("site.yaml"), "resources:\n  - file: {name: /tmp/x, content: \"x\\n\"}\n");
        return new BundleReader(BundleReader.DEFAULT_MAX_BYTES, warning -> {}).read(dir.resolve("site.yaml"));
    }

    @Test
    void aPrivateEtcdHoldsTheDeployAndIsStoppedOnClose() throws Exception {
        PrivateFleet fleet = PrivateFleet.start(null, "r1", TIMEOUT);
        EtcdOptions options = new EtcdOptions(java.util.List.of(fleet.endpoint()), fleet.namespace(), Duration.ofSeconds(2));
        try (fleet; Etcd etcd = Etcd.connect(options)) {
            assertThat(fleet.deploy(bundle(), "me@here")).isEqualTo(1);
            assertThat(etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY)).getKvs()).hasSize(1);
            assertThat(fleet.host("web1")).as("never registered").isNull();
        }
        assertThatThrownBy(() -> Etcd.connect(options).close()).isInstanceOf(EtcdUnreachableException.class);
    }

    @Test
    void onASharedEtcdTheRunKeepsToANamespaceOfItsOwnAndDeletesItOnClose(LocalEtcd local) throws Exception {
        String namespace = LocalEtcd.uniqueNamespace("remote-fleet");
        try (Etcd fleetsOwn = Etcd.connect(EtcdOptions.of(local.endpoint(), namespace, TIMEOUT))) {
            fleetsOwn.await(fleetsOwn.kv().put(Keys.CURRENT_DEPLOY, ByteSequence.from("the fleet's", StandardCharsets.UTF_8)));
            try (PrivateFleet fleet = PrivateFleet.start(EtcdOptions.of(local.endpoint(), namespace, TIMEOUT), "r2", TIMEOUT)) {
                assertThat(fleet.namespace()).isEqualTo(namespace + "remote/r2/");
                fleet.deploy(bundle(), "me@here");
                assertThat(count(fleetsOwn, "remote/r2/")).isPositive();
            }
            assertThat(count(fleetsOwn, "remote/")).as("the run's keys are gone").isZero();
            assertThat(fleetsOwn.await(fleetsOwn.kv().get(Keys.CURRENT_DEPLOY)).getKvs().getFirst().getValue().toString(StandardCharsets.UTF_8))
                    .isEqualTo("the fleet's");
        }
    }

    private static long count(Etcd etcd, String prefix) throws Exception {
        return etcd.await(etcd.kv().get(Keys.key(prefix), GetOption.builder().isPrefix(true).withCountOnly(true).build())).getCount();
    }
}
