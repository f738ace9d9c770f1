package io.muster.coordinator;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.proto.fleet.GraphPointer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the leader's host pointers, and the graphs they name, many hosts per etcd transaction: a deploy
 * reaching a thousand hosts is some twenty round trips rather than three per host. One thread of its own takes
 * what the compile threads hand it ({@link #write}) and puts all that is waiting in the next transaction, so
 * batches grow with the load and a lone host waits for no one.
 *
 * <p>Each transaction is what one host's would be, for all its hosts together: every pointer compared with its
 * revision as the leader read it, and the leader's key with the term's ({@link Term#stillLeader()}). A host's
 * graph is stored under the host ({@link Keys#graph(String, String)}: only that host may read it), written with
 * the pointer when it is a new one, and the graph the pointer named before deleted in the same transaction, so
 * each host has one stored graph and no graph outlives its pointer. When any compare fails, the same transaction
 * reads the leader's key and the pointers instead, which says why: a lost term ends it, a host whose pointer
 * moved is left out (the watch brings the change, which compiles the host again); the rest is tried again at once.
 */
final class PointerWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PointerWriter.class);
    /**
     * etcd's default --max-txn-ops is 128 per list: per host, the pointer's compare, and the pointer's put, the new
     * graph's and the old graph's delete; and the leader's compare.
     */
    static final int HOSTS_PER_TXN = 42;
    /** Well under etcd's 1.5 MiB request limit, leaving room for keys and framing. */
    static final int BYTES_PER_TXN = 1 << 19;
    /** How many transactions in a row may find a conflict before a batch is given up (each resolves what it found). */
    private static final int ATTEMPTS = 5;

    private final Etcd etcd;
    private final Term term;
    private final ContentStore store;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread thread;

    /**
     * A host's pointer to write over {@code previous}, the one at {@code revision}; the graph it names (null: none to
     * store), and the outcome.
     */
    private record Pending(String host, GraphPointer pointer, GraphPointer previous, long revision, GraphEncoder.Encoded graph,
            CompletableFuture<Long> done) {
        int bytes() {
            return pointer.getSerializedSize() + (newGraph() ? graph.bytes().length : 0);
        }

        /** Whether the pointer names another graph than the one stored for the host. */
        boolean newGraph() {
            return graph != null && (previous == null || !previous.getGraph().equals(graph.sha256()));
        }

        /** The host's graph the pointer no longer names; null when there is none or it is still named. */
        String oldGraph() {
            return previous == null || previous.getGraph().isEmpty() || previous.getGraph().equals(pointer.getGraph()) ? null : previous.getGraph();
        }
    }

    PointerWriter(Etcd etcd, Term term) {
        this.etcd = etcd;
        this.term = term;
        this.store = new ContentStore(etcd);
        this.thread = Thread.ofPlatform().name("muster-publish").daemon().start(this::run);
    }

    /**
     * Writes {@code host}'s pointer over {@code previous}, the one at {@code revision} (null and 0: none), storing
     * {@code graph} with it unless {@code previous} names it already.
     *
     * @param graph the encoded graph {@code pointer} names; null when it names one stored before (a compile error)
     * @return the revision it was written at; 0 when it was not: its pointer moved meanwhile, or the term ended
     *         (a future that fails with {@link EtcdUnreachableException} when etcd did not answer)
     */
    CompletableFuture<Long> write(String host, GraphPointer pointer, GraphPointer previous, long revision, GraphEncoder.Encoded graph) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        queue.add(new Pending(host, pointer, previous, revision, graph, done));
        return done;
    }

    private void run() {
        try {
            while (true) {
                List<Pending> batch = new ArrayList<>();
                Pending first = queue.take();
                batch.add(first);
                int bytes = first.bytes();
                for (Pending next; batch.size() < HOSTS_PER_TXN && (next = queue.peek()) != null && bytes + next.bytes() <= BYTES_PER_TXN; ) {
                    batch.add(queue.poll());
                    bytes += next.bytes();
                }
                commit(batch);
            }
        } catch (InterruptedException e) {
            // closed: nobody waits for what is left (the compile threads are stopped first)
        }
    }

    private void commit(List<Pending> batch) {
        try {
            List<Pending> left = batch;
            for (int attempt = 0; attempt < ATTEMPTS && !left.isEmpty() && !term.ended(); attempt++) left = attempt(left);
            if (!left.isEmpty() && !term.ended()) LOG.warn("{} host pointers kept conflicting; their hosts are compiled again when their keys change", left.size());
            left.forEach(p -> p.done.complete(0L));
        } catch (EtcdUnreachableException | RuntimeException e) {
            batch.forEach(p -> p.done.completeExceptionally(e));
        }
    }

    /** One transaction for {@code batch}; returns the hosts still to write (none when it succeeded). */
    private List<Pending> attempt(List<Pending> batch) throws EtcdUnreachableException {
        List<Cmp> compares = new ArrayList<>();
        List<Op> puts = new ArrayList<>();
        List<Op> reads = new ArrayList<>();
        GetOption keysOnly = GetOption.builder().withKeysOnly(true).build();
        compares.add(term.stillLeader());
        reads.add(Op.get(term.key(), GetOption.DEFAULT));
        for (Pending p : batch) {
            ByteSequence key = Keys.graphPointer(p.host);
            compares.add(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(p.revision)));
            puts.add(Op.put(key, ByteSequence.from(p.pointer.toByteArray()), PutOption.DEFAULT));
            if (p.newGraph()) {
                ByteSequence graph = Keys.graph(p.host, p.graph.sha256());
                Optional<ByteSequence> single = ContentStore.single(p.graph.bytes());
                if (single.isPresent()) {
                    puts.add(Op.put(graph, single.get(), PutOption.DEFAULT));
                } else {
                    store.put(graph, p.graph.bytes()); // chunked: before its pointer, as a pointer must find its graph
                }
            }
            if (p.oldGraph() != null) {
                // with its chunks: they are the keys under the graph's key
                puts.add(Op.delete(Keys.graph(p.host, p.oldGraph()), DeleteOption.builder().isPrefix(true).build()));
            }
            reads.add(Op.get(key, keysOnly));
        }
        TxnResponse response = etcd.await(etcd.kv().txn()
                .If(compares.toArray(Cmp[]::new)).Then(puts.toArray(Op[]::new)).Else(reads.toArray(Op[]::new)).commit());
        if (response.isSucceeded()) {
            long revision = response.getHeader().getRevision();
            batch.forEach(p -> p.done.complete(revision));
            return List.of();
        }
        List<GetResponse> found = response.getGetResponses();
        List<KeyValue> leader = found.getFirst().getKvs();
        if (leader.isEmpty() || leader.getFirst().getCreateRevision() != term.revision()) {
            term.end("another coordinator leads");
            return batch;
        }
        int at = 1;
        List<Pending> left = new ArrayList<>();
        for (Pending p : batch) {
            List<KeyValue> pointer = found.get(at++).getKvs();
            long now = pointer.isEmpty() ? 0 : pointer.getFirst().getModRevision();
            if (now == p.revision) {
                left.add(p);
            } else {
                p.done.complete(0L); // its pointer moved: the watch brings the change, which marks the host again
            }
        }
        return left;
    }

    /** Stops the writer's thread; call it once no compile thread waits for a write. */
    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join();
    }
}
