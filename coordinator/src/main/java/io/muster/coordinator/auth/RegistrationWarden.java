package io.muster.coordinator.auth;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.etcd.StateWatch;
import io.muster.proto.fleet.Alive;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leading coordinator ends registrations whose agent is gone though their lease lives on. etcd 3.4 lets any
 * client keep any lease alive, with no permission check, so a host could keep a dead host's registration, and with
 * it its exports, in the fleet. An agent writes its {@code alive} key again every {@code Alive.renew_seconds}; a
 * registration not written again for three times that (counted from when this coordinator began to lead, at the
 * earliest) has its lease revoked: its alive key and exports go, as when its lease expires. A registration of an
 * earlier agent, which never writes it again, is left alone.
 */
public final class RegistrationWarden {
    private static final Logger LOG = LoggerFactory.getLogger(RegistrationWarden.class);
    private static final int MISSED_RENEWALS = 3;

    private final Etcd etcd;
    private final Clock clock;
    private final Object lock = new Object();
    private SortedMap<String, Registration> told; // guarded by lock: the alive keys as last seen, not looked at yet

    /** An alive key as read: its lease, its last write, and how often its agent writes it. */
    private record Registration(long lease, long modRevision, long renewSeconds) {}

    /** A registration as first seen unchanged, at {@code since}. */
    private record Seen(Registration registration, Instant since) {
        Instant due() {
            return since.plusSeconds(registration.renewSeconds() * MISSED_RENEWALS);
        }
    }

    public RegistrationWarden(Etcd etcd, Clock clock) {
        this.etcd = etcd;
        this.clock = clock;
    }

    /** Keeps watch until {@code over} completes (the term ended). */
    public void lead(CompletableFuture<?> over) {
        over.whenComplete((why, failure) -> {
            synchronized (lock) {
                lock.notifyAll();
            }
        });
        Backoff backoff = Backoff.forCoordinator();
        try (StateWatch<Registration> watch = new StateWatch<>(etcd, Keys.HOSTS, true, backoff, RegistrationWarden::registration, state -> {
            synchronized (lock) {
                told = state;
                lock.notifyAll();
            }
        })) {
            Map<String, Seen> seen = new HashMap<>();
            while (!over.isDone()) {
                SortedMap<String, Registration> now;
                synchronized (lock) {
                    now = told;
                    told = null;
                }
                if (now != null) note(now, seen);
                Instant retry = null;
                try {
                    revokeDue(seen);
                } catch (EtcdUnreachableException e) {
                    LOG.warn("checking the hosts' registrations: {}", e.getMessage());
                    retry = clock.instant().plus(backoff.next());
                }
                Optional<Instant> next = seen.values().stream().filter(s -> s.registration().renewSeconds() > 0).map(Seen::due).min(Instant::compareTo);
                Instant wake = retry != null && next.map(retry::isBefore).orElse(true) ? retry : next.orElse(null);
                synchronized (lock) {
                    long wait = wake == null ? 0 : Math.max(1, Duration.between(clock.instant(), wake).toMillis());
                    if (told == null && !over.isDone()) lock.wait(wait);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The registration an alive key holds; null for the other keys of a host. */
    private static Registration registration(KeyValue kv) {
        Keys.HostKey key = Keys.parseHostKey(kv.getKey());
        if (key == null || !key.what().equals("alive")) return null;
        long renew;
        try {
            renew = Alive.parseFrom(kv.getValue().getBytes()).getRenewSeconds();
        } catch (InvalidProtocolBufferException e) {
            renew = 0; // not an agent's: its lease alone says whether it lives
        }
        return new Registration(kv.getLease(), kv.getModRevision(), Math.max(0, renew));
    }

    private void note(SortedMap<String, Registration> now, Map<String, Seen> seen) {
        seen.keySet().retainAll(now.keySet());
        Instant at = clock.instant();
        now.forEach((key, registration) -> {
            Seen before = seen.get(key);
            if (before == null || !before.registration().equals(registration)) seen.put(key, new Seen(registration, at));
        });
    }

    /** Revokes the lease of each registration due, unless it was written again since it was seen. */
    private void revokeDue(Map<String, Seen> seen) throws EtcdUnreachableException {
        Instant now = clock.instant();
        for (var it = seen.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Seen> entry = it.next();
            Registration registration = entry.getValue().registration();
            if (registration.renewSeconds() == 0 || registration.lease() == 0 || now.isBefore(entry.getValue().due())) continue;
            List<KeyValue> found = etcd.await(etcd.kv().get(Keys.key(entry.getKey()))).getKvs();
            if (!found.isEmpty() && found.getFirst().getModRevision() == registration.modRevision()) {
                etcd.await(etcd.jetcd().getLeaseClient().revoke(registration.lease()));
                LOG.warn("revoked the registration of {}: its agent has not written it for {} s, though its lease was kept alive",
                        Keys.parseHostKey(Keys.key(entry.getKey())).host(), Duration.between(entry.getValue().since(), now).toSeconds());
            }
            it.remove(); // gone, revoked or written again: the watch tells what it is now
        }
    }
}
