package io.muster.coordinator.status;

import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.coordinator.etcd.WatchErrors;
import io.muster.proto.fleet.CurrentDeploy;
import io.muster.proto.fleet.Rollout;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code muster deploy --wait}: follows the hosts (a listing, then a watch from the revision after it) until
 * every live host has settled on the deploy (converged, or failed: its compile, or resources that stay failed
 * once its run converged) or the timeout passes, or another deploy (or a rollback) is made current. Hosts whose
 * agents come or go meanwhile are counted as they do. A deploy that goes out in waves is followed wave by wave, and
 * the wait ends when its rollout halts; once the rollout is done, the wait goes on as for any deploy.
 */
public final class DeployWait {
    /** What the wait shows as it goes. */
    public interface Progress {
        void converged(int converged, int live);

        /** Once per host, when it is first seen failed on the deploy. */
        void failed(HostView host);

        /** A deploy that goes out in waves: where they stand, on each change. */
        default void rollout(RolloutView rollout) {}
    }

    /**
     * How the wait ended.
     *
     * @param hosts the live hosts at the end, by name
     * @param supersededBy the deploy (or rollback) made current while waiting, which ended the wait; 0 for none
     * @param rollout the deploy's waves at the end; empty when it went out at once
     */
    public record Outcome(long deploy, List<HostView> hosts, long supersededBy, Optional<RolloutView> rollout) {
        /** Every live host converged on the deploy with no failed resource (and it is still current, its rollout done). */
        public boolean success() {
            return supersededBy == 0 && rollout.map(r -> r.state().equals("done")).orElse(true) && hosts.stream().allMatch(h -> h.convergedOn(deploy));
        }

        /** Its rollout halted (stalled), or was stopped (rolled back, superseded). */
        public boolean halted() {
            return rollout.isPresent() && !rollout.get().state().equals("running") && !rollout.get().state().equals("done");
        }

        public List<HostView> failed() {
            return hosts.stream().filter(h -> h.failedOn(deploy)).toList();
        }

        /** Live hosts neither converged nor failed on the deploy: still applying it, or not yet told of it. */
        public List<HostView> pending() {
            return hosts.stream().filter(h -> !h.convergedOn(deploy) && !h.failedOn(deploy)).toList();
        }
    }

    private final Etcd etcd;

    public DeployWait(Etcd etcd) {
        this.etcd = etcd;
    }

    public Outcome await(long deploy, Duration timeout, Progress progress) throws EtcdUnreachableException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<String> failuresShown = new HashSet<>();
        Backoff relists = Backoff.forCoordinator();
        while (true) { // once per listing: a watch that ends (compacted, refused) lists again
            HostTable table = new HostTable();
            long revision = Pages.forEach(etcd, Keys.HOSTS, table::put);
            GetOption atListing = GetOption.builder().withRevision(revision).build();
            long current = current(etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY, atListing)).getKvs());
            Rollout rollout = rollout(etcd.await(etcd.kv().get(Keys.rollout(deploy), atListing)).getKvs());
            LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
            WatchOption hosts = WatchOption.builder().isPrefix(true).withRevision(revision + 1).build();
            WatchOption key = WatchOption.builder().withRevision(revision + 1).build();
            try (Watch.Watcher hostsWatch = etcd.jetcd().getWatchClient().watch(Keys.HOSTS, hosts, events::add, events::add);
                 Watch.Watcher currentWatch = etcd.jetcd().getWatchClient().watch(Keys.CURRENT_DEPLOY, key, events::add, events::add);
                 Watch.Watcher rolloutWatch = etcd.jetcd().getWatchClient().watch(Keys.rollout(deploy), key, events::add, events::add)) {
                while (true) {
                    Optional<RolloutView> waves = rollout == null ? Optional.empty() : Optional.of(RolloutView.of(rollout, table::host));
                    Outcome outcome = new Outcome(deploy, table.live(), current == deploy ? 0 : current, waves);
                    for (HostView failed : outcome.failed()) {
                        if (failuresShown.add(failed.host())) progress.failed(failed);
                    }
                    waves.ifPresent(progress::rollout);
                    progress.converged(outcome.hosts().size() - outcome.pending().size() - outcome.failed().size(), outcome.hosts().size());
                    boolean settled = outcome.pending().isEmpty() && waves.map(r -> !r.state().equals("running")).orElse(true); // its last step to come
                    if (settled || outcome.supersededBy() != 0 || outcome.halted()) return outcome;
                    long left = deadline - System.nanoTime();
                    Object event = left <= 0 ? null : events.poll(left, TimeUnit.NANOSECONDS);
                    if (event == null) return outcome;
                    if (event instanceof WatchResponse response) {
                        for (WatchEvent e : response.getEvents()) {
                            boolean deleted = e.getEventType() == WatchEvent.EventType.DELETE;
                            if (e.getKeyValue().getKey().equals(Keys.CURRENT_DEPLOY)) current = deleted ? 0 : current(List.of(e.getKeyValue()));
                            else if (e.getKeyValue().getKey().equals(Keys.rollout(deploy))) rollout = deleted ? null : rollout(List.of(e.getKeyValue()));
                            else if (deleted) table.delete(e.getKeyValue());
                            else table.put(e.getKeyValue());
                        }
                    } else if (!WatchErrors.resumed(event)) { // the watch ended: list again, not in a tight loop
                        Thread.sleep(relists.next());
                        break;
                    }
                }
            }
        }
    }

    private static Rollout rollout(List<KeyValue> kvs) {
        return kvs.isEmpty() ? null : Stored.parse(Rollout.parser(), kvs.getFirst());
    }

    private static long current(List<KeyValue> kvs) {
        return kvs.isEmpty() ? 0 : Stored.parse(CurrentDeploy.parser(), kvs.getFirst()).getId();
    }
}
