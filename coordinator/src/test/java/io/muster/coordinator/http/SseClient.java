package io.muster.coordinator.http;

import io.muster.engine.util.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An event stream read on a thread of its own: each event's data document, with its id as {@code _id}. */
final class SseClient implements AutoCloseable {
    private final LinkedBlockingQueue<Map<String, Object>> events = new LinkedBlockingQueue<>();
    private final java.util.concurrent.CompletableFuture<HttpResponse<Void>> response;

    @SuppressWarnings("unchecked")
    SseClient(ApiFleet fleet, String path, String lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(fleet.uri(path));
        if (lastEventId != null) request.header("Last-Event-ID", lastEventId);
        String[] id = {null};
        String[] type = {null};
        response = fleet.http.sendAsync(request.build(), HttpResponse.BodyHandlers.fromLineSubscriber(new java.util.concurrent.Flow.Subscriber<String>() {
            @Override
            public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
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
