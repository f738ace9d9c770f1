package io.muster.coordinator.rollout;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.op.Cmp;

/** The leading coordinator's term, as its rollout writes are fenced on it (the coordinator's {@code Term}). */
public interface LeaderFence {
    /** The election key, relative to the namespace. */
    ByteSequence key();

    /** The election key's creation revision. */
    long revision();

    /** A compare that holds while this coordinator leads. */
    Cmp stillLeader();

    /** Ends the term, saying why. */
    void end(String why);
}
