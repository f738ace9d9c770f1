package io.muster.coordinator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The web page: plain HTML, CSS and JavaScript kept in the jar beside this class ({@code web/}), served as they
 * are (no build step). {@code /} is {@code index.html}; only the files named here are served, so no path a
 * request makes up can reach anything else in the jar.
 */
final class StaticAssets implements HttpHandler {
    private static final Map<String, String> FILES = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/app.js", "app.js",
            "/style.css", "style.css");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8");

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String file = FILES.get(exchange.getRequestURI().getPath());
        if (file == null) {
            Exchanges.error(exchange, 404, "no such page: " + exchange.getRequestURI().getPath());
            return;
        }
        String method = exchange.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            Exchanges.error(exchange, 405, method + " is not allowed here; use GET");
            return;
        }
        byte[] body;
        try (InputStream in = StaticAssets.class.getResourceAsStream("web/" + file)) {
            if (in == null) throw new IOException("web/" + file + " is missing from the jar");
            body = in.readAllBytes();
        }
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.getResponseHeaders().set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
        Exchanges.bytes(exchange, 200, TYPES.get(file.substring(file.lastIndexOf('.') + 1)), body);
    }
}
