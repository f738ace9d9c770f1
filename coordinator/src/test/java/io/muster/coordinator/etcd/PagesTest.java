package io.muster.coordinator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalEtcd.class)
class PagesTest {

    @Test
    void readsEveryKeyUnderAPrefixPageByPageAtTheRevisionOfTheFirstPage(LocalEtcd local) throws Exception {
        try (Etcd etcd = Etcd.connect(EtcdOptions.of(local.endpoint(), LocalEtcd.uniqueNamespace("pages"), Duration.ofSeconds(5)))) {
            int hosts = Pages.PAGE * 2 + 101;
            for (int from = 0; from < hosts; from += 100) { // at most 128 operations a transaction
                List<Op> puts = new ArrayList<>();
                for (int n = from; n < Math.min(hosts, from + 100); n++) {
                    puts.add(Op.put(Keys.alive(String.format(Locale.ROOT, "h%05d", n)), ByteSequence.from(new byte[] {1}), PutOption.DEFAULT));
                }
                Txn txn = etcd.kv().txn();
                etcd.await(txn.Then(puts.toArray(Op[]::new)).commit());
            }
            etcd.await(etcd.kv().put(Keys.key("hostsX"), ByteSequence.from(new byte[] {1}))); // past the prefix
            List<String> seen = new ArrayList<>();
            boolean[] added = {false};
            Pages.forEach(etcd, Keys.HOSTS, kv -> {
                seen.add(Keys.text(kv.getKey()));
                if (!added[0]) { // a host that registers while the pages are read belongs to the watch, not the listing
                    added[0] = true;
                    try {
                        etcd.await(etcd.kv().put(Keys.alive("h00000a"), ByteSequence.from(new byte[] {1})));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }
            });
            assertThat(seen).hasSize(hosts).isSorted().doesNotContain("hosts/h00000a/alive");
            assertThat(seen.getFirst()).isEqualTo("hosts/h00000/alive");
            assertThat(seen.getLast()).isEqualTo(String.format(Locale.ROOT, "hosts/h%05d/alive", hosts - 1));
        }
    }
}
