package io.muster.coordinator;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.muster.coordinator.rollout.LeaderFence;
import java.util.concurrent.CompletableFuture;

/**
 * One stint as leader: the election key this coordinator holds, bound to its lease. Every write of the
 * leader compares that key's creation revision ({@link #stillLeader()}), so a coordinator that lost its
 * lease unawares (a pause, a partition) can publish nothing over its successor.
 *
 * @param key the election key, relative to the namespace
 * @param revision the key's creation revision
 */
record Term(long lease, ByteSequence key, long revision, CompletableFuture<String> over) implements LeaderFence {

    @Override
    public Cmp stillLeader() {
        return new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(revision));
    }

    /** Ends the term, saying why (the first reason given wins). */
    @Override
    public void end(String why) {
        over.complete(why);
    }

    boolean ended() {
        return over.isDone();
    }
}
