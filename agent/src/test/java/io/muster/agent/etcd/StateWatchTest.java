package io.muster.agent.etcd;

import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.testing.CuttableProxy;
import io.muster.agent.testing.LocalEtcd;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** List-then-watch across a lost connection: a watch whose revision was compacted meanwhile lists again. */
@ExtendWith(LocalEtcd.class)
class StateWatchTest {

    @Test
    void aWatchResumedFromACompactedRevisionListsAgainAndSeesTheLatestState(LocalEtcd local) throws Exception {
        String namespace = LocalEtcd.uniqueNamespace("compacted");
        int port = URI.create(local.endpoint()).getPort();
        ByteSequence key = Keys.key("watched");
        try (CuttableProxy proxy = new CuttableProxy(port);
             Etcd direct = Etcd.connect(EtcdOptions.of(local.endpoint(), namespace, Duration.ofSeconds(5)));
             Etcd agent = Etcd.connect(EtcdOptions.of(proxy.endpoint(), namespace, Duration.ofSeconds(2)))) {
            List<SortedMap<String, ByteSequence>> seen = new CopyOnWriteArrayList<>();
            try (StateWatch<ByteSequence> watch = StateWatch.values(agent, key, false, new Backoff(Duration.ofMillis(50), Duration.ofMillis(500)), seen::add)) {
                direct.await(direct.kv().put(key, ByteSequence.from("1".getBytes())));
                await().atMost(Duration.ofSeconds(10)).until(() -> value(seen).equals("1"));

                proxy.cut();
                long revision = 0;
                for (int i = 2; i <= 5; i++) revision = direct.await(direct.kv().put(key, ByteSequence.from(("" + i).getBytes()))).getHeader().getRevision();
                direct.await(direct.kv().compact(revision));
                proxy.restore();

                await().atMost(Duration.ofSeconds(20)).until(() -> value(seen).equals("5"));
            }
        }
    }

    private static String value(List<SortedMap<String, ByteSequence>> seen) {
        if (seen.isEmpty()) return "";
        ByteSequence v = seen.getLast().get("watched");
        return v == null ? "" : v.toString();
    }
}
