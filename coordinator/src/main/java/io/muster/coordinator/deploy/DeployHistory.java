package io.muster.coordinator.deploy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.proto.fleet.CurrentDeploy;
import io.muster.proto.fleet.Deploy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The deploys in etcd ({@code deploys/<id>}, {@code deploys/current}): which is current, the history, and
 * rollback, which makes an earlier deploy current again.
 */
public final class DeployHistory {
    /** deploys/ followed by the zero-padded ids: every id key sorts between these two, deploys/current after. */
    static final ByteSequence FIRST = Keys.key("deploys/0");
    static final ByteSequence END = Keys.key("deploys/:");

    private final Etcd etcd;

    public DeployHistory(Etcd etcd) {
        this.etcd = etcd;
    }

    /** The current deploy's id; empty before the first deploy. */
    public OptionalLong current() throws EtcdUnreachableException {
        GetResponse response = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY));
        if (response.getKvs().isEmpty()) return OptionalLong.empty();
        return OptionalLong.of(Stored.parse(CurrentDeploy.parser(), response.getKvs().getFirst()).getId());
    }

    /** The highest deploy id, 0 before the first deploy. */
    public long last() throws EtcdUnreachableException {
        GetResponse response = etcd.await(etcd.kv().get(FIRST, GetOption.builder().withRange(END)
                .withSortField(GetOption.SortTarget.KEY).withSortOrder(GetOption.SortOrder.DESCEND).withLimit(1).withKeysOnly(true).build()));
        return response.getKvs().isEmpty() ? 0 : Keys.parseDeploy(response.getKvs().getFirst().getKey());
    }

    public Optional<Deploy> get(long id) throws EtcdUnreachableException {
        GetResponse response = etcd.await(etcd.kv().get(Keys.deploy(id)));
        return response.getKvs().stream().findFirst().map(kv -> Stored.parse(Deploy.parser(), kv));
    }

    /** Every deploy, oldest first. */
    public List<Deploy> list() throws EtcdUnreachableException {
        List<Deploy> deploys = new ArrayList<>();
        Pages.forEach(etcd, FIRST, END, kv -> deploys.add(Stored.parse(Deploy.parser(), kv)));
        return deploys;
    }

    /** A rollback done: the deploy that was current, and the one that is now. */
    public record Rollback(long from, long to) {}

    /**
     * Makes deploy {@code to} current, or when empty the deploy before the current one (the highest id below
     * it: rolling back twice goes back two deploys). The change is a transaction on the current deploy as it
     * was read, so a deploy made meanwhile is never overwritten unseen.
     *
     * @throws DeployException when there is no such deploy, or none before the current one
     */
    public Rollback rollback(OptionalLong to) throws EtcdUnreachableException, DeployException {
        return rollback(0, to);
    }

    /**
     * Rolls deploy {@code of} back to the deploy before it, if {@code of} is still the current one when the
     * transaction commits (the HTTP API's rollback of a deploy someone looked at).
     *
     * @throws DeployException when {@code of} is not current, or there is no deploy before it
     */
    public Rollback rollbackOf(long of) throws EtcdUnreachableException, DeployException {
        return rollback(of, OptionalLong.empty());
    }

    private Rollback rollback(long of, OptionalLong to) throws EtcdUnreachableException, DeployException {
        while (true) {
            GetResponse read = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY));
            if (read.getKvs().isEmpty()) throw new DeployException("nothing to roll back: no deploy yet");
            KeyValue currentKv = read.getKvs().getFirst();
            long current = Stored.parse(CurrentDeploy.parser(), currentKv).getId();
            if (of != 0 && current != of) throw new DeployException("deploy " + of + " is not the current deploy (" + current + " is)");
            long target = to.isPresent() ? to.getAsLong() : before(current);
            if (target < 1 || get(target).isEmpty()) throw new DeployException("no deploy " + target + " (see muster deploys)");
            if (target == current) return new Rollback(current, target); // nothing to change: hosts are not disturbed
            boolean done = etcd.await(etcd.kv().txn()
                    .If(new Cmp(Keys.CURRENT_DEPLOY, Cmp.Op.EQUAL, CmpTarget.modRevision(currentKv.getModRevision())))
                    .Then(Op.put(Keys.CURRENT_DEPLOY, currentValue(target), PutOption.DEFAULT))
                    .commit()).isSucceeded();
            if (done) return new Rollback(current, target);
        }
    }

    private long before(long current) throws EtcdUnreachableException, DeployException {
        if (current <= 1) throw new DeployException("nothing to roll back to: deploy " + current + " is the first");
        GetResponse response = etcd.await(etcd.kv().get(FIRST, GetOption.builder().withRange(Keys.deploy(current))
                .withSortField(GetOption.SortTarget.KEY).withSortOrder(GetOption.SortOrder.DESCEND).withLimit(1).withKeysOnly(true).build()));
        if (response.getKvs().isEmpty()) throw new DeployException("nothing to roll back to: no deploy before " + current);
        return Keys.parseDeploy(response.getKvs().getFirst().getKey());
    }

    static ByteSequence currentValue(long id) {
        return ByteSequence.from(CurrentDeploy.newBuilder().setId(id).build().toByteArray());
    }
}
