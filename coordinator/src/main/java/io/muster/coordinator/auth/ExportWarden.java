package io.muster.coordinator.auth;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.LeaseOption;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.etcd.StateWatch;
import io.muster.coordinator.rollout.LeaderFence;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leading coordinator keeps every export bound to its exporter's registration. etcd lets a host bind a key it
 * may write to any lease it holds, or to none, so a host could leave an export that outlives it; an agent binds its
 * exports to the lease of its {@code alive} key. An export bound to no lease, or of a host with no {@code alive}
 * key, is deleted at once; one bound to another lease is deleted when that is still so after the registration's
 * TTL: an agent that registers again publishes its exports again under the new lease, and its earlier lease's keys
 * go by themselves within that time. Each delete holds only if neither the export nor the registration changed
 * since they were read, and only while this coordinator leads.
 */
public final class ExportWarden {
    private static final Logger LOG = LoggerFactory.getLogger(ExportWarden.class);

    /** When an export whose delete found something changed is looked at again. */
    private static final Duration RECHECK = Duration.ofSeconds(1);

    private final Etcd etcd;
    private final Clock clock;
    private final Object lock = new Object();
    private SortedMap<String, Binding> told; // guarded by lock: the exports as last seen, not looked at yet

    /** How an export is bound, as read. */
    private record Binding(long lease, long modRevision) {}

    /**
     * An export bound to another lease than its exporter's registration (of {@code aliveLease}), deleted at {@code
     * due} if still so.
     */
    private record Suspect(Binding binding, long aliveLease, Instant due) {}

    public ExportWarden(Etcd etcd, Clock clock) {
        this.etcd = etcd;
        this.clock = clock;
    }

    /** Keeps watch while {@code fence} holds, until {@code over} completes (the term ended). */
    public void lead(LeaderFence fence, CompletableFuture<?> over) {
        over.whenComplete((why, failure) -> {
            synchronized (lock) {
                lock.notifyAll();
            }
        });
        Backoff backoff = Backoff.forCoordinator();
        try (StateWatch<Binding> watch = new StateWatch<>(etcd, Keys.EXPORTED, true, backoff,
                kv -> new Binding(kv.getLease(), kv.getModRevision()), state -> {
                    synchronized (lock) {
                        told = state;
                        lock.notifyAll();
                    }
                })) {
            Map<String, Binding> exports = Map.of();
            Map<String, Binding> bound = new HashMap<>(); // exports found bound to their registration
            Map<String, Suspect> suspects = new HashMap<>();
            Instant retry = null;
            while (!over.isDone()) {
                synchronized (lock) {
                    if (told != null) exports = told;
                    told = null;
                }
                try {
                    look(fence, exports, bound, suspects);
                    retry = null;
                } catch (EtcdUnreachableException e) {
                    LOG.warn("checking exports' leases: {}", e.getMessage());
                    retry = clock.instant().plus(backoff.next());
                }
                Instant wake = suspects.values().stream().map(Suspect::due).min(Instant::compareTo).orElse(null);
                if (retry != null && (wake == null || retry.isBefore(wake))) wake = retry;
                synchronized (lock) {
                    long wait = wake == null ? 0 : Math.max(1, Duration.between(clock.instant(), wake).toMillis());
                    if (told == null && !over.isDone()) lock.wait(wait);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Checks each export not checked in its present binding, and deletes the suspects that are due. */
    private void look(LeaderFence fence, Map<String, Binding> exports, Map<String, Binding> bound, Map<String, Suspect> suspects)
            throws EtcdUnreachableException {
        bound.keySet().retainAll(exports.keySet());
        suspects.keySet().retainAll(exports.keySet());
        Map<String, KeyValue> registrations = new HashMap<>(); // read once a pass; a null value: no alive key
        for (Map.Entry<String, Binding> export : exports.entrySet()) {
            String key = export.getKey();
            Binding binding = export.getValue();
            Keys.ExportKey parsed = Keys.parseExportKey(Keys.key(key));
            if (binding.equals(bound.get(key))) continue;
            if (parsed == null) { // a host's own range holds it (exported/KIND/HOST/), but it names no export: no collector reads it
                if (!delete(fence, key, binding, null, "it names no export")) suspects.put(key, new Suspect(binding, -1, clock.instant().plus(RECHECK)));
                continue;
            }
            Suspect suspect = suspects.get(key);
            if (suspect != null && suspect.binding().equals(binding) && clock.instant().isBefore(suspect.due())) continue;
            suspects.remove(key);
            KeyValue alive = registration(parsed.host(), registrations);
            if (binding.lease() != 0 && alive != null && alive.getLease() == binding.lease()) {
                bound.put(key, binding);
                continue;
            }
            boolean due = suspect != null && suspect.binding().equals(binding) && alive != null && suspect.aliveLease() == alive.getLease();
            if (binding.lease() == 0 || alive == null || due) {
                String why = alive == null ? "its host is not registered"
                        : binding.lease() == 0 ? "it is bound to no lease" : "it is bound to another lease than its host's registration";
                if (!delete(fence, key, binding, alive, why)) suspects.put(key, new Suspect(binding, -1, clock.instant().plus(RECHECK)));
            } else {
                long ttl = etcd.await(etcd.jetcd().getLeaseClient().timeToLive(alive.getLease(), LeaseOption.DEFAULT)).getGrantedTTL();
                suspects.put(key, new Suspect(binding, alive.getLease(), clock.instant().plus(Duration.ofSeconds(Math.max(1, ttl)))));
            }
        }
    }

    /** The {@code alive} key of {@code host}, or null: read from etcd the first time a pass asks. */
    private KeyValue registration(String host, Map<String, KeyValue> read) throws EtcdUnreachableException {
        if (read.containsKey(host)) return read.get(host);
        List<KeyValue> found = etcd.await(etcd.kv().get(Keys.alive(host))).getKvs();
        KeyValue alive = found.isEmpty() ? null : found.getFirst();
        read.put(host, alive);
        return alive;
    }

    /**
     * Deletes the export if it and its host's registration are as read ({@code alive} null: there was none, or the
     * key names no host); false when either changed since.
     */
    private boolean delete(LeaderFence fence, String key, Binding binding, KeyValue alive, String why) throws EtcdUnreachableException {
        ByteSequence exportKey = Keys.key(key);
        Keys.ExportKey parsed = Keys.parseExportKey(exportKey);
        List<Cmp> conditions = new java.util.ArrayList<>(List.of(fence.stillLeader(),
                new Cmp(exportKey, Cmp.Op.EQUAL, CmpTarget.modRevision(binding.modRevision()))));
        if (parsed != null) {
            ByteSequence aliveKey = Keys.alive(parsed.host());
            conditions.add(alive == null
                    ? new Cmp(aliveKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0))
                    : new Cmp(aliveKey, Cmp.Op.EQUAL, CmpTarget.modRevision(alive.getModRevision())));
        }
        boolean deleted = etcd.await(etcd.kv().txn()
                .If(conditions.toArray(Cmp[]::new))
                .Then(Op.delete(exportKey, DeleteOption.DEFAULT))
                .commit()).isSucceeded();
        if (deleted) LOG.warn("deleted the export {}: {}", key, why);
        return deleted;
    }
}
