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
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code muster deploy --wait}: follows the hosts (a listing, then a watch from the revision after it) until
 * every live host has settled on the deploy (converged, or failed: its compile, or resources that stay failed
 * once its run converged) or the timeout passes, or another deploy (or a rollback) is made current. Hosts whose
 * agents come or go meanwhile are counted as they do.
 */
public final class DeployWait {
    /** What the wait shows as it goes. */
    public interface Progress {
        void converged(int converged, int live);

        /** Once per host, when it is first seen failed on the deploy. */
        void failed(HostView host);
    }

    /**
     * How the wait ended.
     *
     * @param hosts the live hosts at the end, by name
     * @param supersededBy the deploy (or rollback) made current while waiting, which ended the wait; 0 for none
     */
    public record Outcome(long deploy, List<HostView> hosts, long supersededBy) {
        /** Every live host converged on the deploy with no failed resource (and it is still current). */
        public boolean success() {
            return supersededBy == 0 && hosts.stream().allMatch(h -> h.convergedOn(deploy));
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
            long current = current(etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY, GetOption.builder().withRevision(revision).build())).getKvs());
            LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
            WatchOption hosts = WatchOption.builder().isPrefix(true).withRevision(revision + 1).build();
            WatchOption currentDeploy = WatchOption.builder().withRevision(revision + 1).build();
            try (Watch.Watcher hostsWatch = etcd.jetcd().getWatchClient().watch(Keys.HOSTS, hosts, events::add, events::add);
                 Watch.Watcher currentWatch = etcd.jetcd().getWatchClient().watch(Keys.CURRENT_DEPLOY, currentDeploy, events::add, events::add)) {
                while (true) {
                    Outcome outcome = new Outcome(deploy, table.live(), current == deploy ? 0 : current);
                    for (HostView failed : outcome.failed()) {
                        if (failuresShown.add(failed.host())) progress.failed(failed);
                    }
                    progress.converged(outcome.hosts().size() - outcome.pending().size() - outcome.failed().size(), outcome.hosts().size());
                    if (outcome.pending().isEmpty() || outcome.supersededBy() != 0) return outcome;
                    long left = deadline - System.nanoTime();
                    Object event = left <= 0 ? null : events.poll(left, TimeUnit.NANOSECONDS);
                    if (event == null) return outcome;
                    if (event instanceof WatchResponse response) {
                        for (WatchEvent e : response.getEvents()) {
                            boolean deleted = e.getEventType() == WatchEvent.EventType.DELETE;
                            if (e.getKeyValue().getKey().equals(Keys.CURRENT_DEPLOY)) current = deleted ? 0 : current(List.of(e.getKeyValue()));
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

    private static long current(List<KeyValue> kvs) {
        return kvs.isEmpty() ? 0 : Stored.parse(CurrentDeploy.parser(), kvs.getFirst()).getId();
    }
}
