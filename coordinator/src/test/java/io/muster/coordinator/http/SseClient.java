package io.muster.coordinator.http;

import io.muster.engine.util.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An event stream read on a thread of its own: each event's data document, with its id as {@code _id}. */
final class SseClient implements AutoCloseable {
    private final LinkedBlockingQueue<Map<String, Object>> events = new LinkedBlockingQueue<>();
    private final java.util.concurrent.CompletableFuture<HttpResponse<Void>> response;

    private volatile boolean opened;

    SseClient(ApiFleet fleet, String path, String lastEventId) {
        this(fleet.http, fleet.uri(path), lastEventId);
    }

    @SuppressWarnings("unchecked")
    SseClient(HttpClient http, URI uri, String lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri);
        if (lastEventId != null) request.header("Last-Event-ID", lastEventId);
        String[] id = {null};
        String[] type = {null};
        response = http.sendAsync(request.build(), HttpResponse.BodyHandlers.fromLineSubscriber(new java.util.concurrent.Flow.Subscriber<String>() {
            @Override
            public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
                opened = true;
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(String line) {
                if (line.startsWith("id: ")) id[0] = line.substring(4);
                else if (line.startsWith("event: ")) type[0] = line.substring(7);
                else if (line.startsWith("data: ")) {
                    Map<String, Object> data = new java.util.LinkedHashMap<>((Map<String, Object>) Json.parse(line.substring(6)));
                    data.put("_id", id[0]);
                    data.put("_type", type[0]);
                    events.add(data);
                }
            }

            @Override
            public void onError(Throwable t) { }

            @Override
            public void onComplete() { }
        }));
    }

    /** Whether the server answered: the stream goes on from the event that was the last then. */
    boolean opened() {
        return opened;
    }

    /** The next event of {@code type} that {@code wanted} admits, skipping others; fails after 20 s. */
    Map<String, Object> next(String type, java.util.function.Predicate<Map<String, Object>> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Map<String, Object> event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) throw new AssertionError("no " + type + " event came within 20 s");
            if (event.get("_type").equals(type) && wanted.test(event)) return event;
        }
    }

    @Override
    public void close() {
        response.cancel(true);
    }
}
