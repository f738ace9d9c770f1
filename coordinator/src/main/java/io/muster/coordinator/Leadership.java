package io.muster.coordinator;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.election.CampaignResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The coordinators' election ({@code coordinator/leader}, etcd's election API): each campaigns with a lease of
 * its own, kept alive while it runs; one leads, the others wait in line. When the leader dies its lease
 * expires within the TTL, its key goes, and the next in line leads. jetcd applies the client's namespace to
 * the election's name but hands back the leader key with it: {@link #campaign()} takes it off, since every
 * other key is written through the namespaced client.
 */
final class Leadership implements AutoCloseable {
    private final Etcd etcd;
    private final String name;
    private final Duration ttl;
    private final CompletableFuture<?> closing;
    private long lease;
    private long leftover; // a lease that could not be revoked when stepping down (etcd was away)
    private CloseableClient keepAlive;
    private CompletableFuture<CampaignResponse> campaign;

    /**
     * @param name this coordinator's name, its proposal in the election (shown by etcd as the leader's value)
     * @param closing done when the coordinator closes: a campaign waiting in line gives up
     */
    Leadership(Etcd etcd, String name, Duration ttl, CompletableFuture<?> closing) {
        this.etcd = etcd;
        this.name = name;
        this.ttl = ttl;
        this.closing = closing;
    }

    /** Waits until this coordinator leads (the term ends when its lease is lost); null when it closes first. */
    Term campaign() throws EtcdUnreachableException, InterruptedException {
        lease = etcd.await(etcd.jetcd().getLeaseClient().grant(Math.max(1, ttl.toSeconds()))).getID();
        if (leftover != 0) { // etcd is back: the lease it kept through its restart would hold the lead until its TTL ran out
            revoke(leftover);
            leftover = 0;
        }
        CompletableFuture<String> over = new CompletableFuture<>();
        keepAlive = etcd.jetcd().getLeaseClient().keepAlive(lease, new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse response) {
                if (response.getTTL() <= 0) over.complete("its lease expired");
            }

            @Override
            public void onError(Throwable t) {
                over.complete("its lease could not be kept alive (" + t.getMessage() + ")");
            }

            @Override
            public void onCompleted() {
                over.complete("its lease ended");
            }
        });
        campaign = etcd.jetcd().getElectionClient().campaign(Keys.LEADER, lease, ByteSequence.from(name, StandardCharsets.UTF_8));
        try {
            CompletableFuture.anyOf(campaign, over, closing).get();
        } catch (ExecutionException e) {
            throw new EtcdUnreachableException("cannot campaign at " + etcd.options().describe() + ": " + e.getCause().getMessage(), e.getCause());
        }
        if (closing.isDone()) return null;
        if (over.isDone()) throw new EtcdUnreachableException("lost the lease while waiting to lead: " + over.getNow(""), null);
        CampaignResponse won = campaign.join();
        return new Term(lease, relative(won.getLeader().getKey()), won.getLeader().getRevision(), over);
    }

    private ByteSequence relative(ByteSequence key) {
        byte[] namespace = etcd.options().namespace().getBytes(StandardCharsets.UTF_8);
        byte[] bytes = key.getBytes();
        boolean prefixed = bytes.length >= namespace.length && Arrays.equals(bytes, 0, namespace.length, namespace, 0, namespace.length);
        return prefixed ? ByteSequence.from(Arrays.copyOfRange(bytes, namespace.length, bytes.length)) : key;
    }

    /**
     * Leaves the election: the lease is revoked, so the next in line leads at once rather than after the TTL
     * (when etcd is away, at the next campaign). The next {@link #campaign()} starts afresh.
     */
    void stepDown() {
        if (campaign != null) campaign.cancel(true);
        if (keepAlive != null) keepAlive.close();
        if (lease != 0 && !revoke(lease)) leftover = lease;
        lease = 0;
        keepAlive = null;
        campaign = null;
    }

    private boolean revoke(long id) {
        try {
            etcd.await(etcd.jetcd().getLeaseClient().revoke(id));
            return true;
        } catch (EtcdUnreachableException e) {
            return false; // gone already, or etcd away: it expires by itself within the TTL
        }
    }

    @Override
    public void close() {
        stepDown();
    }
}
