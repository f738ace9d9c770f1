package io.muster.coordinator.http;

import io.muster.engine.util.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The fleet's recent events, numbered, for {@code /api/v1/events} and a host's recent events: a ring of the
 * last {@code capacity}, which every stream reads from at its own pace (a slow client holds nothing up; one
 * that fell further behind than the ring is told to reload). An event's id is {@code EPOCH.N}: N counts up, and
 * EPOCH is new with each coordinator process, so a page that reconnects to another one (or to a restarted one)
 * knows its ids mean nothing there.
 */
final class EventLog {
    /**
     * One event.
     *
     * @param type {@code host}, {@code deploy}, {@code current}, {@code removed}, {@code wave} or {@code rollout}
     * @param host the host it is about; null for none
     * @param data the event's JSON document
     */
    record Event(long n, String type, String host, Map<String, Object> data) {}

    private final String epoch = Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    private final Event[] ring;
    private long last; // guarded by this: the number of the newest event, 0 before the first
    private boolean closed; // guarded by this

    EventLog(int capacity) {
        this.ring = new Event[capacity];
    }

    synchronized void add(String type, String host, Map<String, Object> data) {
        last++;
        ring[(int) (last % ring.length)] = new Event(last, type, host, data);
        notifyAll();
    }

    /** The id of the newest event (or of none yet): a stream from it gets what happens next. */
    synchronized String lastId() {
        return id(last);
    }

    String id(long n) {
        return epoch + "." + n;
    }

    /** The number in {@code id}; -1 when it is not one of this log's ids (another process's, or garbled). */
    long number(String id) {
        if (id == null || !id.startsWith(epoch + ".")) return -1;
        try {
            return Long.parseLong(id.substring(epoch.length() + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The events after number {@code after}, waiting up to {@code wait} for one; empty when none came (or the log
     * closed); null when {@code after} is older than the ring keeps, or not one of these numbers.
     */
    synchronized List<Event> after(long after, Duration wait) throws InterruptedException {
        if (after < 0 || after > last || last - after > ring.length) return null;
        long deadline = System.nanoTime() + wait.toNanos();
        while (after == last && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) break;
            wait(Math.max(1, left / 1_000_000));
        }
        List<Event> events = new ArrayList<>((int) (last - after));
        for (long n = after + 1; n <= last; n++) events.add(ring[(int) (n % ring.length)]);
        return events;
    }

    /** The newest {@code limit} events about {@code host} the ring still holds, oldest first. */
    synchronized List<Event> about(String host, int limit) {
        List<Event> found = new ArrayList<>();
        for (long n = last; n > Math.max(0, last - ring.length) && found.size() < limit; n--) {
            Event e = ring[(int) (n % ring.length)];
            if (host.equals(e.host())) found.addFirst(e);
        }
        return found;
    }

    /** Ends every wait: the streams end, as the server stops. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    synchronized boolean closed() {
        return closed;
    }

    /** {@code event} as a Server-Sent Events message: its id, its type as the event name, its document as data. */
    String sse(Event event) {
        return "id: " + id(event.n()) + "\nevent: " + event.type() + "\ndata: " + Json.compact(event.data()) + "\n\n";
    }
}
