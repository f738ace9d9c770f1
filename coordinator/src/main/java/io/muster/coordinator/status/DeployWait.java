package io.muster.coordinator.status;

import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Backoff;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.WatchErrors;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code muster deploy --wait}: follows the hosts (a listing, then a watch from the revision after it) until
 * every live host has settled on the deploy (converged, or failed: its compile, or resources that stay failed
 * once its run converged) or the timeout passes. Hosts whose agents come or go meanwhile are counted as they do.
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
     */
    public record Outcome(long deploy, List<HostView> hosts) {
        /** Every live host converged on the deploy with no failed resource. */
        public boolean success() {
            return hosts.stream().allMatch(h -> h.convergedOn(deploy));
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
        Backoff relists = new Backoff();
        while (true) { // once per listing: a watch that ends (compacted, refused) lists again
            HostTable table = new HostTable();
            long revision = Pages.forEach(etcd, Keys.HOSTS, table::put);
            LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
            WatchOption option = WatchOption.builder().isPrefix(true).withRevision(revision + 1).build();
            try (Watch.Watcher watcher = etcd.jetcd().getWatchClient().watch(Keys.HOSTS, option, events::add, events::add)) {
                while (true) {
                    Outcome outcome = new Outcome(deploy, table.live());
                    for (HostView failed : outcome.failed()) {
                        if (failuresShown.add(failed.host())) progress.failed(failed);
                    }
                    progress.converged(outcome.hosts().size() - outcome.pending().size() - outcome.failed().size(), outcome.hosts().size());
                    if (outcome.pending().isEmpty()) return outcome;
                    long left = deadline - System.nanoTime();
                    Object event = left <= 0 ? null : events.poll(left, TimeUnit.NANOSECONDS);
                    if (event == null) return outcome;
                    if (event instanceof WatchResponse response) apply(table, response);
                    else if (!WatchErrors.resumed(event)) { // the watch ended: list again, not in a tight loop
                        Thread.sleep(relists.next());
                        break;
                    }
                }
            }
        }
    }

    private static void apply(HostTable table, WatchResponse response) {
        for (WatchEvent e : response.getEvents()) {
            if (e.getEventType() == WatchEvent.EventType.DELETE) table.delete(e.getKeyValue());
            else table.put(e.getKeyValue());
        }
    }
}
