package io.muster.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.Keys;
import io.muster.remote.ssh.SshConnection;
import io.muster.remote.testing.SharedSshd;
import io.muster.remote.testing.Sshd;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a local user of a host can do with the tunnel a run opens on the host's loopback to its private etcd (the real
 * sshd logs in on this machine, so the host's loopback is this one's): nothing without the run's certificate of a host,
 * and with one, no more than that host may.
 */
@ExtendWith(SharedSshd.class)
class TunnelTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** etcd's JSON gateway: the range of every key ("AA==" is the key 0x00, the range end 0x00 means "to the last"). */
    private static final String EVERY_KEY = "'{\"key\":\"AA==\",\"range_end\":\"AA==\"}'";

    private final Sshd sshd;

    TunnelTest(Sshd sshd) {
        this.sshd = sshd;
    }

    @Test
    void withoutTheRunsCertificateALocalUserOfTheHostGetsNothingThroughTheTunnel() throws Exception {
        try (PrivateFleet fleet = PrivateFleet.start(null, null, "t1", TIMEOUT);
             SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            EtcdTls web1 = fleet.admit("web1");
            int port = ssh.forwardRemotePort(fleet.endpoint().getHost(), fleet.endpoint().getPort());

            List<String> plain = new ArrayList<>();
            int status = ssh.exec("curl -sS -m 5 -X POST -d " + EVERY_KEY + " http://127.0.0.1:" + port + "/v3/kv/range", plain::add);
            assertThat(status).as("plain HTTP: %s", plain).isNotZero();
            assertThat(plain).as("etcd says nothing to plain HTTP").singleElement().asString().startsWith("curl: (52) ");

            List<String> noCertificate = new ArrayList<>();
            status = ssh.exec("curl -sS -m 5 --cacert " + web1.ca() + " -X POST -d " + EVERY_KEY + " https://127.0.0.1:" + port + "/v3/kv/range",
                    noCertificate::add);
            assertThat(status).as("TLS without a client certificate: %s", noCertificate).isNotZero();
            assertThat(noCertificate).as("etcd ends the handshake").singleElement().asString().startsWith("curl: (").doesNotContain("kvs");
        }
    }

    @Test
    void throughTheTunnelAHostsCertificateReadsItsOwnKeysButNotAnotherHostsGraph() throws Exception {
        try (PrivateFleet fleet = PrivateFleet.start(null, null, "t2", TIMEOUT);
             SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            EtcdTls web1 = fleet.admit("web1");
            fleet.admit("web2");
            int port = ssh.forwardRemotePort(fleet.endpoint().getHost(), fleet.endpoint().getPort());

            // as the agent dials it: etcd's certificate is good for 127.0.0.1, where the tunnel arrives on the host
            try (Etcd agent = Etcd.client(new EtcdOptions(List.of(URI.create("https://127.0.0.1:" + port)), fleet.namespace(), TIMEOUT, web1))) {
                assertThat(agent.await(agent.kv().get(Keys.graphPointer("web1"))).getKvs()).isEmpty();
                assertThatThrownBy(() -> agent.await(agent.kv().get(Keys.graphPointer("web2")))).hasMessageContaining("refused");
            }
        }
    }
}
