package io.muster.agent.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.testing.LocalEtcd;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalEtcd.class)
class EtcdTest {

    @Test
    void anUnreachableEtcdIsOneLineNamingTheEndpointsWithinTheTimeout() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        EtcdOptions options = EtcdOptions.of("127.0.0.1:" + closed, "/muster/", Duration.ofSeconds(2));
        long start = System.nanoTime();
        assertThatThrownBy(() -> Etcd.connect(options))
                .isInstanceOf(EtcdUnreachableException.class)
                .hasMessageStartingWith("cannot reach etcd at http://127.0.0.1:" + closed + ": ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("Exception"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void anEndpointThatIsNotEtcdIsOneLineToo() {
        // what gRPC says of an HTTP server that is not etcd (a proxy, a web server on that port)
        io.grpc.StatusRuntimeException notEtcd = io.grpc.Status.UNIMPLEMENTED
                .withDescription("HTTP status code 404\ninvalid content-type: text/html\ntrailers: Metadata(:status=404)").asRuntimeException();
        assertThat(Etcd.reason(new java.util.concurrent.CompletionException(notEtcd))).isEqualTo("unimplemented (HTTP status code 404)");
    }

    @Test
    void badFlagsNameTheFlag() {
        assertThatThrownBy(() -> EtcdOptions.of("ftp://x:1", "/m/", Duration.ofSeconds(1))).hasMessageContaining("--etcd");
        assertThatThrownBy(() -> EtcdOptions.of(" , ", "/m/", Duration.ofSeconds(1))).hasMessageContaining("--etcd");
        assertThat(EtcdOptions.of("127.0.0.1:2379,http://h:1", "/m", Duration.ofSeconds(1)).namespace()).isEqualTo("/m/");
    }

    @Test
    void storesSmallAndChunkedValuesByContent(LocalEtcd local) throws Exception {
        EtcdOptions options = EtcdOptions.of(local.endpoint(), LocalEtcd.uniqueNamespace("content"), Duration.ofSeconds(5));
        try (Etcd etcd = Etcd.connect(options)) {
            ContentStore store = new ContentStore(etcd);
            byte[] small = "hello\n".getBytes();
            byte[] big = new byte[ContentStore.CHUNK_BYTES * 3 + 17]; // random: gzip cannot shrink it below one chunk
            new Random(7).nextBytes(big);
            for (byte[] value : new byte[][] {small, big}) {
                ByteSequence key = Keys.blob(ContentStore.sha256(value));
                assertThat(store.put(key, value)).isTrue();
                assertThat(store.put(key, value)).as("stored once").isFalse();
                assertThat(store.get(key)).hasValueSatisfying(read -> assertThat(read).isEqualTo(value));
            }
            assertThat(store.get(Keys.blob(ContentStore.sha256(new byte[] {1})))).isEmpty();
        }
    }

    @Test
    void aValueThatIsNotWhatTheStoreWroteIsRefused(LocalEtcd local) throws Exception {
        EtcdOptions options = EtcdOptions.of(local.endpoint(), LocalEtcd.uniqueNamespace("corrupt"), Duration.ofSeconds(5));
        try (Etcd etcd = Etcd.connect(options)) {
            ByteSequence key = Keys.blob(ContentStore.sha256(new byte[] {1}));
            etcd.await(etcd.kv().put(key, ByteSequence.from(new byte[] {(byte) 0xff, 1, 2})));
            assertThatThrownBy(() -> new ContentStore(etcd).get(key)).isInstanceOf(ContentStore.CorruptValueException.class)
                    .hasMessageContaining("blobs/");
        }
    }

    @Test
    void hostNamesAreChecked() {
        assertThat(Keys.checkHost("web-1.example.com")).isEqualTo("web-1.example.com");
        assertThat(Keys.checkHost("10.0.0.1:2222")).isEqualTo("10.0.0.1:2222");
        for (String bad : new String[] {"", "a/b", "-x", ".x", "a b", "é"}) {
            assertThatThrownBy(() -> Keys.checkHost(bad)).hasMessageContaining("invalid host name");
        }
    }
}
