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

    private long revisionOf(ByteSequence key) throws Exception {
        return fleet.etcd.await(fleet.etcd.kv().get(key)).getKvs().getFirst().getModRevision();
    }

    @Test
    void writesMoreHostsThanOneTransactionHoldsEachWithItsOwnGraph() throws Exception {
        GraphEncoder.Encoded web = graph("web"), db = graph("db");
        List<CompletableFuture<Long>> written = new ArrayList<>();
        int hosts = 3 * PointerWriter.HOSTS_PER_TXN;
        for (int n = 0; n < hosts; n++) {
            written.add(writer.write("h" + n, pointer(1, n % 2 == 0 ? web : db), null, 0, n % 2 == 0 ? web : db));
        }

        for (CompletableFuture<Long> revision : written) assertThat(revision.get()).isPositive();
        assertThat(fleet.pointer("h0").getGraph()).isEqualTo(web.sha256());
        assertThat(fleet.pointer("h1").getGraph()).isEqualTo(db.sha256());
        assertThat(count(Keys.GRAPHS)).as("one graph per host: only its host reads it").isEqualTo(hosts);
        assertThat(new String(new ContentStore(fleet.etcd).get(Keys.graph("h1", db.sha256())).orElseThrow(), StandardCharsets.UTF_8)).isEqualTo("db");
    }

    @Test
    void aHostWhosePointerMovedIsLeftOutWithNoGraphStored() throws Exception {
        GraphEncoder.Encoded kept = graph("kept");
        long moved = fleet.etcd.await(fleet.etcd.kv().put(Keys.graphPointer("moved"), ByteSequence.from(pointer(7, kept).toByteArray())))
                .getHeader().getRevision();

        CompletableFuture<Long> stale = writer.write("moved", pointer(1, kept), null, moved - 1, kept);
        CompletableFuture<Long> other = writer.write("other", pointer(1, kept), null, 0, kept);

        assertThat(stale.get()).as("a pointer that moved since it was read").isZero();
        assertThat(other.get()).isPositive();
        assertThat(fleet.pointer("moved").getDeploy()).isEqualTo(7);
        assertThat(fleet.pointer("other").getGraph()).isEqualTo(kept.sha256());
        assertThat(count(Keys.graphs("moved"))).isZero();
        assertThat(count(Keys.graphs("other"))).isOne();
    }

    @Test
    void aNewGraphReplacesTheHostsOldOneAndAnUnchangedOneIsNotWrittenAgain() throws Exception {
        GraphEncoder.Encoded first = graph("first"), second = graph("second");
        long one = writer.write("h1", pointer(1, first), null, 0, first).get();
        long two = writer.write("h1", pointer(2, second), pointer(1, first), one, second).get();

        assertThat(two).isPositive();
        assertThat(count(Keys.graphs("h1"))).isOne();
        assertThat(new ContentStore(fleet.etcd).get(Keys.graph("h1", second.sha256()))).isPresent();
        long stored = revisionOf(Keys.graph("h1", second.sha256()));

        long three = writer.write("h1", pointer(3, second), pointer(2, second), two, second).get();
        assertThat(three).isPositive();
        assertThat(fleet.pointer("h1").getDeploy()).isEqualTo(3);
        assertThat(revisionOf(Keys.graph("h1", second.sha256()))).as("the same graph, not written again").isEqualTo(stored);
    }

    @Test
    void aGraphTooBigForOneKeyIsStoredInChunksAndReplacedWithThem() throws Exception {
        byte[] noise = new byte[3 << 19]; // one and a half of the store's 1 MiB chunks
        new java.util.Random(7).nextBytes(noise); // random bytes do not compress
        GraphEncoder.Encoded big = new GraphEncoder.Encoded(noise, ContentStore.sha256(noise)), small = graph("small");

        long one = writer.write("h1", pointer(1, big), null, 0, big).get();
        assertThat(new ContentStore(fleet.etcd).get(Keys.graph("h1", big.sha256()))).hasValueSatisfying(v -> assertThat(v).isEqualTo(noise));
        assertThat(count(Keys.graphs("h1"))).as("a header and two chunks").isEqualTo(3);

        writer.write("h1", pointer(2, small), pointer(1, big), one, small).get();
        assertThat(count(Keys.graphs("h1"))).isOne();
    }

    @Test
    void aLeaderWhoseKeyIsGoneWritesNothingAndItsTermEnds() throws Exception {
        fleet.etcd.await(fleet.etcd.kv().delete(LEADER));
        GraphEncoder.Encoded web = graph("web");

        assertThat(writer.write("h1", pointer(1, web), null, 0, web).get()).isZero();
        assertThat(term.ended()).isTrue();
        assertThat(fleet.pointer("h1")).isNull();
        assertThat(count(Keys.GRAPHS)).isZero();
    }
}
