package io.muster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.proto.fleet.GraphPointer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LocalEtcd.class)
class PointerWriterTest {
    private static final ByteSequence LEADER = Keys.key("coordinator/leader/test");

    @TempDir
    Path dir;

    private TestFleet fleet;
    private Term term;
    private PointerWriter writer;

    @BeforeEach
    void leader(LocalEtcd local) throws Exception {
        fleet = new TestFleet(local, "pointers", dir);
        long revision = fleet.etcd.await(fleet.etcd.kv().put(LEADER, ByteSequence.from("c1", StandardCharsets.UTF_8))).getHeader().getRevision();
        term = new Term(0, LEADER, revision, new CompletableFuture<>());
        writer = new PointerWriter(fleet.etcd, term);
    }

    @AfterEach
    void close() throws Exception {
        writer.close();
        fleet.close();
    }

    private static GraphEncoder.Encoded graph(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new GraphEncoder.Encoded(bytes, ContentStore.sha256(bytes));
    }

    private static GraphPointer pointer(long deploy, GraphEncoder.Encoded graph) {
        return GraphPointer.newBuilder().setDeploy(deploy).setGraph(graph.sha256()).build();
    }

    private long count(ByteSequence prefix) throws Exception {
        return fleet.etcd.await(fleet.etcd.kv().get(prefix, GetOption.builder().isPrefix(true).withCountOnly(true).build())).getCount();
    }

    @Test
    void writesMoreHostsThanOneTransactionHoldsEachSharedGraphOnce() throws Exception {
        GraphEncoder.Encoded web = graph("web"), db = graph("db");
        List<CompletableFuture<Long>> written = new ArrayList<>();
        for (int n = 0; n < 3 * PointerWriter.HOSTS_PER_TXN; n++) {
            written.add(writer.write("h" + n, pointer(1, n % 2 == 0 ? web : db), 0, n % 2 == 0 ? web : db));
        }

        for (CompletableFuture<Long> revision : written) assertThat(revision.get()).isPositive();
        assertThat(fleet.pointer("h0").getGraph()).isEqualTo(web.sha256());
        assertThat(fleet.pointer("h1").getGraph()).isEqualTo(db.sha256());
        assertThat(count(Keys.GRAPHS)).isEqualTo(2);
        assertThat(new String(new ContentStore(fleet.etcd).get(Keys.graph(db.sha256())).orElseThrow(), StandardCharsets.UTF_8)).isEqualTo("db");
    }

    @Test
    void aHostWhosePointerMovedIsLeftOutAndAGraphStoredBeforeIsNotRewritten() throws Exception {
        GraphEncoder.Encoded kept = graph("kept");
        new ContentStore(fleet.etcd).put(Keys.graph(kept.sha256()), kept.bytes());
        long storedAt = fleet.etcd.await(fleet.etcd.kv().get(Keys.graph(kept.sha256()))).getKvs().getFirst().getModRevision();
        long moved = fleet.etcd.await(fleet.etcd.kv().put(Keys.graphPointer("moved"), ByteSequence.from(pointer(7, kept).toByteArray())))
                .getHeader().getRevision();

        CompletableFuture<Long> stale = writer.write("moved", pointer(1, kept), moved - 1, kept);
        CompletableFuture<Long> other = writer.write("other", pointer(1, kept), 0, kept);

        assertThat(stale.get()).as("a pointer that moved since it was read").isZero();
        assertThat(other.get()).isPositive();
        assertThat(fleet.pointer("moved").getDeploy()).isEqualTo(7);
        assertThat(fleet.pointer("other").getGraph()).isEqualTo(kept.sha256());
        assertThat(fleet.etcd.await(fleet.etcd.kv().get(Keys.graph(kept.sha256()))).getKvs().getFirst().getModRevision()).isEqualTo(storedAt);
    }

    @Test
    void aLeaderWhoseKeyIsGoneWritesNothingAndItsTermEnds() throws Exception {
        fleet.etcd.await(fleet.etcd.kv().delete(LEADER));
        GraphEncoder.Encoded web = graph("web");

        assertThat(writer.write("h1", pointer(1, web), 0, web).get()).isZero();
        assertThat(term.ended()).isTrue();
        assertThat(fleet.pointer("h1")).isNull();
        assertThat(count(Keys.GRAPHS)).isZero();
    }
}
