package io.muster.coordinator.http;

import com.sun.net.httpserver.HttpExchange;
import io.muster.engine.util.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Answers on a {@link HttpExchange}: JSON documents, JSON errors, bytes; and its query's parameters. */
final class Exchanges {
    private Exchanges() {}

    static void json(HttpExchange exchange, int status, Map<String, Object> doc) throws IOException {
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        bytes(exchange, status, "application/json", Json.compact(doc).getBytes(StandardCharsets.UTF_8));
    }

    static void error(HttpExchange exchange, int status, String message) throws IOException {
        json(exchange, status, ApiJson.error(message));
    }

    static void bytes(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        exchange.close();
    }

    /** The query's parameters, decoded; the last of a name repeated. */
    static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> params = new HashMap<>();
        String query = exchange.getRequestURI().getRawQuery();
        if (query == null) return params;
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            params.put(name, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }
}
