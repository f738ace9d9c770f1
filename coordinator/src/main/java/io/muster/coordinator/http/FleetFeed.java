package io.muster.coordinator.http;

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
import io.muster.coordinator.deploy.DeploysJson;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.coordinator.etcd.WatchErrors;
import io.muster.coordinator.status.HostTable;
import io.muster.coordinator.status.HostView;
import io.muster.proto.fleet.CurrentDeploy;
import io.muster.proto.fleet.Deploy;
import io.muster.proto.fleet.Rollout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet as the API serves it, kept live: the hosts and the deploys are listed, then watched from the
 * revision after (a watch jetcd gives up, its revision compacted, lists again), and each change that shows
 * becomes an event in the {@link EventLog}: a host's row changed ({@code host}, with its state before), a deploy
 * was created ({@code deploy}), another deploy became current ({@code current}: a deploy or a rollback), a host's
 * keys are all gone ({@code removed}), a rollout's wave started, ended or halted ({@code wave}) or the rollout
 * changed state ({@code rollout}; {@link RolloutEvents}). The host list and the event stream come from this one table, so a page
 * that reads the list, then the stream from the list's event id, misses nothing and sees nothing twice.
 */
final class FleetFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FleetFeed.class);
    private static final Object CLOSED = new Object();

    /**
     * The hosts at one moment.
     *
     * @param event the id of the last event this picture includes: a stream from it goes on from here
     * @param current the current deploy; 0 before the first
     */
    record Snapshot(String event, long current, List<HostView> hosts) {}

    private final Etcd etcd;
    private final EventLog log;
    private final Thread thread;
    private final LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private HostTable table = new HostTable(); // guarded by this, as are the four below
    private long current;
    private final Set<Long> deploys = new HashSet<>();
    private final Map<Long, Rollout> rollouts = new HashMap<>(); // as last seen, by deploy
    private final Map<String, Map<String, Object>> rows = new HashMap<>(); // as last told, by host
    private volatile boolean closed;

    /** Lists the fleet now (so the first request finds it), then follows it on a thread of its own. */
    FleetFeed(Etcd etcd, EventLog log) throws EtcdUnreachableException {
        this.etcd = etcd;
        this.log = log;
        long revision = list(false);
        this.thread = Thread.ofPlatform().name("muster-api-feed").daemon().start(() -> follow(revision));
    }

    synchronized Snapshot snapshot() {
        return new Snapshot(log.lastId(), current, table.hosts());
    }

    /** The hosts' rows as {@code /api/v1/hosts} has them, with the state of each. */
    static Map<String, Object> row(HostView host, long current) {
        Map<String, Object> row = ApiJson.hostRow(host);
        row.put("state", HostState.of(host, current).label());
        return row;
    }

    /**
     * Lists hosts and deploys, and tells what changed since the last picture (of the deploys, only when {@code
     * tellDeploys}: not those there at the start); returns the hosts' revision.
     */
    private long list(boolean tellDeploys) throws EtcdUnreachableException {
        HostTable listed = new HostTable();
        long revision = Pages.forEach(etcd, Keys.HOSTS, listed::put);
        GetOption atListing = GetOption.builder().withRevision(revision).build();
        List<KeyValue> currentKv = etcd.await(etcd.kv().get(Keys.CURRENT_DEPLOY, atListing)).getKvs();
        List<KeyValue> created = new ArrayList<>(); // deploys this feed has not seen: made while its watch was down
        Pages.forEach(etcd, Keys.DEPLOYS, kv -> {
            if (Keys.parseDeploy(kv.getKey()) > 0 && !deploys.contains(Keys.parseDeploy(kv.getKey()))) created.add(kv);
        });
        List<KeyValue> rolloutKvs = new ArrayList<>();
        Pages.forEach(etcd, Keys.ROLLOUTS, rolloutKvs::add);
        synchronized (this) {
            table = listed;
            for (KeyValue kv : created) {
                deploys.add(Keys.parseDeploy(kv.getKey()));
                if (tellDeploys) deployCreated(kv);
            }
            setCurrent(currentKv.isEmpty() ? 0 : Stored.parse(CurrentDeploy.parser(), currentKv.getFirst()).getId());
            for (KeyValue kv : rolloutKvs) rolloutChanged(kv, tellDeploys);
            Set<String> gone = new HashSet<>(rows.keySet());
            for (HostView host : listed.hosts()) {
                gone.remove(host.host());
                tell(host);
            }
            gone.forEach(this::removed);
        }
        return revision;
    }

    private void follow(long listedAt) {
        Backoff relists = Backoff.forCoordinator();
        long revision = listedAt;
        while (!closed) {
            try {
                if (revision == 0) revision = list(true);
                watch(revision);
                revision = 0;
                if (!closed) Thread.sleep(relists.next()); // the watch ended: list again, not in a tight loop
            } catch (EtcdUnreachableException e) {
                LOG.warn("the API's view of the fleet is stale: {}", e.getMessage());
                revision = 0;
                try {
                    Thread.sleep(relists.next());
                } catch (InterruptedException stop) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Follows hosts/, deploys/ and rollouts/ from {@code revision + 1} until the watch ends or the feed closes. */
    private void watch(long revision) throws InterruptedException {
        WatchOption from = WatchOption.builder().isPrefix(true).withRevision(revision + 1).build();
        try (Watch.Watcher hosts = etcd.jetcd().getWatchClient().watch(Keys.HOSTS, from, events::add, events::add);
             Watch.Watcher deploysWatch = etcd.jetcd().getWatchClient().watch(Keys.DEPLOYS, from, events::add, events::add);
             Watch.Watcher rolloutsWatch = etcd.jetcd().getWatchClient().watch(Keys.ROLLOUTS, from, events::add, events::add)) {
            while (true) {
                Object event = events.take();
                if (event == CLOSED) return;
                if (event instanceof WatchResponse response) {
                    synchronized (this) {
                        for (WatchEvent e : response.getEvents()) apply(e);
                    }
                } else if (!WatchErrors.resumed(event)) {
                    LOG.info("the API's watch ended ({}); listing again", event);
                    events.clear();
                    return;
                }
            }
        }
    }

    private void apply(WatchEvent event) {
        KeyValue kv = event.getKeyValue();
        boolean deleted = event.getEventType() == WatchEvent.EventType.DELETE;
        if (kv.getKey().equals(Keys.CURRENT_DEPLOY)) {
            setCurrent(deleted ? 0 : Stored.parse(CurrentDeploy.parser(), kv).getId());
        } else if (Keys.parseDeploy(kv.getKey()) > 0) {
            if (!deleted && deploys.add(Keys.parseDeploy(kv.getKey()))) deployCreated(kv);
        } else if (Keys.parseRollout(kv.getKey()) > 0) {
            if (!deleted) rolloutChanged(kv, true);
        } else {
            Keys.HostKey key = Keys.parseHostKey(kv.getKey());
            if (key == null) return;
            if (deleted) table.delete(kv);
            else table.put(kv);
            table.host(key.host()).ifPresentOrElse(this::tell, () -> removed(key.host()));
        }
    }

    private void deployCreated(KeyValue kv) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("deploy", DeploysJson.entry(Stored.parse(Deploy.parser(), kv)));
        log.add("deploy", null, data);
    }

    /** A rollout as stored now: the events its change makes ({@link RolloutEvents}), when {@code tell}. */
    private void rolloutChanged(KeyValue kv, boolean tell) {
        Rollout now = Stored.parse(Rollout.parser(), kv);
        Rollout before = rollouts.put(now.getDeploy(), now);
        if (!tell || now.equals(before)) return;
        for (RolloutEvents.Told told : RolloutEvents.between(before, now, table::host)) log.add(told.type(), null, told.data());
    }

    /** A new current deploy: said, and every host's state judged again against it. */
    private void setCurrent(long id) {
        if (id == current) return;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("current_deploy", id == 0 ? null : id);
        data.put("previous", current == 0 ? null : current);
        current = id;
        log.add("current", null, data);
        table.hosts().forEach(this::tell);
    }

    /** An event for {@code host} when its row is not the one last told. */
    private void tell(HostView host) {
        Map<String, Object> row = row(host, current);
        Map<String, Object> before = rows.put(host.host(), row);
        if (row.equals(before)) return;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("host", row);
        data.put("previous", before == null ? null : before.get("state"));
        log.add("host", host.host(), data);
    }

    private void removed(String host) {
        if (rows.remove(host) == null) return;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("host", host);
        log.add("removed", host, data);
    }

    @Override
    public void close() {
        closed = true;
        events.add(CLOSED);
        thread.interrupt(); // were it waiting to list again
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
