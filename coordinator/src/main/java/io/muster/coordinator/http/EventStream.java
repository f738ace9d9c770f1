package io.muster.coordinator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * {@code GET /api/v1/events}: the fleet's events as Server-Sent Events, each with its id, type and a JSON
 * document ({@link FleetFeed}). It starts after the event named by {@code Last-Event-ID} (a browser's
 * reconnection) or {@code ?since=ID} (the {@code event} of a host list just read), else with what happens next.
 * A stream that cannot go on from there (the id is another coordinator's, or older than the log keeps) gets a
 * {@code reset} event first: the client reads the list again. A comment line every 15 s keeps proxies from
 * closing a quiet stream and tells a stream whose client has gone to end.
 */
final class EventStream implements HttpHandler {
    private static final Duration KEEPALIVE = Duration.ofSeconds(15);

    private final EventLog log;

    EventStream(EventLog log) {
        this.log = log;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestMethod().equals("GET")) {
            exchange.getResponseHeaders().set("Allow", "GET");
            Exchanges.error(exchange, 405, exchange.getRequestMethod() + " is not allowed here; use GET");
            return;
        }
        String from = exchange.getRequestHeaders().getFirst("Last-Event-ID");
        if (from == null) from = Exchanges.query(exchange).get("since");
        long after = from == null ? log.number(log.lastId()) : log.number(from);
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            send(out, "retry: 2000\n\n");
            while (!log.closed()) {
                List<EventLog.Event> events = log.after(after, KEEPALIVE);
                if (events == null) {
                    after = log.number(log.lastId());
                    send(out, "id: " + log.id(after) + "\nevent: reset\ndata: {}\n\n");
                } else if (events.isEmpty()) {
                    send(out, ": keepalive\n\n");
                } else {
                    StringBuilder batch = new StringBuilder();
                    for (EventLog.Event e : events) batch.append(log.sse(e));
                    send(out, batch.toString());
                    after = events.getLast().n();
                }
            }
        } catch (IOException gone) {
            // the client closed the stream
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    private static void send(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
