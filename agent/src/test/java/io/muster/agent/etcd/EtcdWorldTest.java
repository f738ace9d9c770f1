package io.muster.agent.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.agent.testing.LocalEtcd;
import io.muster.engine.world.World;
import io.muster.engine.world.World.Exported;
import io.muster.engine.world.WorldContract;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.Facts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The agent's World over a real etcd keeps every World's promises; its exports live as long as its lease. */
@ExtendWith(LocalEtcd.class)
class EtcdWorldTest extends WorldContract {
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final java.util.Map<EtcdWorld, HostRegistration> registrations = new java.util.HashMap<>();
    private final LocalEtcd etcd;

    EtcdWorldTest(LocalEtcd etcd) {
        this.etcd = etcd;
    }

    @Override
    protected World newWorld() throws Exception {
        return world(LocalEtcd.uniqueNamespace("world"), "web1");
    }

    @Override
    protected int writesPerWriter() {
        return 40;
    }

    private EtcdWorld world(String namespace, String host) throws Exception {
        Etcd client = Etcd.connect(EtcdOptions.of(etcd.endpoint(), namespace, Duration.ofSeconds(5)));
        HostRegistration registration = new HostRegistration(client, host, Duration.ofSeconds(2), Alive.getDefaultInstance(), Facts::getDefaultInstance,
                java.nio.file.Files.createTempFile("lease", ""));
        EtcdWorld world = new EtcdWorld(client, registration, host);
        opened.add(client);
        opened.add(registration);
        opened.add(world);
        registrations.put(world, registration);
        registration.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> registration.lease() != 0);
        return world;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened.reversed()) c.close();
    }

    @Test
    void anotherHostCollectsTheExportsAndTheyGoWithTheExportersLease() throws Exception {
        String namespace = LocalEtcd.uniqueNamespace("exports");
        EtcdWorld web = world(namespace, "web1");
        EtcdWorld lb = world(namespace, "lb1");
        List<List<Exported>> seen = new CopyOnWriteArrayList<>();
        lb.collect("upstream/http", seen::add);

        web.publish("upstream/http", "/pool/a", "{port: 80}").join();
        Exported a = new Exported("web1", "upstream/http", "/pool/a", "{port: 80}");
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(List.of(a)));

        registrations.get(web).close(); // its lease is revoked
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.getLast().isEmpty());
        assertThat(lb.get(World.Key.shared("x")).join()).isEmpty();
    }

    @Test
    void exportsArePublishedAgainUnderTheNewLeaseWhenTheOldOneIsLost() throws Exception {
        String namespace = LocalEtcd.uniqueNamespace("republish");
        EtcdWorld web = world(namespace, "web1");
        List<List<Exported>> seen = new CopyOnWriteArrayList<>();
        web.collect("upstream", seen::add);
        web.publish("upstream", "a", "{port: 80}").join();
        Exported a = new Exported("web1", "upstream", "a", "{port: 80}");
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(List.of(a)));
        long lease = registrations.get(web).lease();
        int before = seen.size();

        try (Etcd client = Etcd.connect(EtcdOptions.of(etcd.endpoint(), namespace, Duration.ofSeconds(5)))) {
            client.await(client.jetcd().getLeaseClient().revoke(lease)); // as if it expired while etcd was away
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> seen.subList(before, seen.size()).contains(List.of())
                && seen.getLast().equals(List.of(a)));
        assertThat(registrations.get(web).lease()).isNotEqualTo(lease);
    }
}
