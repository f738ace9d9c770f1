package io.muster.coordinator.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.engine.codec.PlainCodec;
import io.muster.proto.fleet.Facts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalEtcd.class)
class HostTargetTest {

    @Test
    void aDeployIsCheckedForTheFirstLiveHostsWithDistinctFactsByName(LocalEtcd local) throws Exception {
        try (Etcd etcd = Etcd.connect(EtcdOptions.of(local.endpoint(), LocalEtcd.uniqueNamespace("targets"), Duration.ofSeconds(5)))) {
            put(etcd, "h001", true, "debian");
            put(etcd, "h002", false, "alpine"); // not alive: its agent is gone
            put(etcd, "h003", true, "debian"); // the same facts as h001's
            for (int n = 4; n <= 600; n++) put(etcd, String.format(Locale.ROOT, "h%03d", n), true, "os" + n); // pages of them

            List<String> tried = new ArrayList<>();
            for (HostTarget target : HostTarget.live(etcd, 3)) tried.add(target.host() + " " + target.facts().get("os"));

            assertThat(tried).containsExactly("h001 debian", "h004 os4", "h005 os5");
            assertThat(HostTarget.live(etcd, Validation.MAX_HOSTS)).hasSize(Validation.MAX_HOSTS);
        }
    }

    private static void put(Etcd etcd, String host, boolean alive, String os) throws Exception {
        byte[] facts = Facts.newBuilder().setFacts(PlainCodec.encodeMap(Map.of("os", os))).build().toByteArray();
        List<Op> puts = new ArrayList<>(List.of(Op.put(Keys.facts(host), ByteSequence.from(facts), PutOption.DEFAULT),
                Op.put(Keys.status(host), ByteSequence.from(new byte[] {1}), PutOption.DEFAULT)));
        if (alive) puts.add(Op.put(Keys.alive(host), ByteSequence.from(new byte[] {1}), PutOption.DEFAULT));
        etcd.await(etcd.kv().txn().Then(puts.toArray(Op[]::new)).commit());
    }
}
