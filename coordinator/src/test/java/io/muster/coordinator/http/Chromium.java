package io.muster.coordinator.http;

import io.muster.engine.util.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's headless {@code chromium}, driven over the Chrome DevTools Protocol with the JDK's WebSocket client:
 * no driver to download and no browser build of its own (what Playwright would bring, pinned to a Chromium
 * revision that is not Debian's), just the browser a sysadmin's machine has and the protocol it speaks. One page
 * (a target, attached in flat mode) per instance. A missing binary fails the test with the command that
 * installs it, as a missing etcd does.
 */
final class Chromium implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private String session;

    private Chromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    /** Starts the browser with a window of {@code width} x {@code height} and one blank page. */
    static Chromium start(int width, int height) throws Exception {
        Path binary = List.of(Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromium-browser")).stream().filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new AssertionError("chromium is not installed; install it with: apt-get install chromium"));
        Path profile = Files.createTempDirectory("muster-chromium-");
        Process process = new ProcessBuilder(binary.toString(), "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--remote-debugging-port=0",
                "--remote-allow-origins=*", "--user-data-dir=" + profile, "--window-size=" + width + "," + height, "about:blank")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String endpoint = endpoint(process);
        Chromium[] self = new Chromium[1];
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(TIMEOUT)
                .buildAsync(URI.create(endpoint), new Listener(message -> self[0].received(message))).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        self[0] = new Chromium(process, profile, socket);
        self[0].attach(width, height);
        return self[0];
    }

    /** The browser's WebSocket address, from the line it prints on standard error; the rest of it is drained. */
    private static String endpoint(Process process) throws IOException {
        BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
        StringBuilder said = new StringBuilder();
        for (String line; (line = err.readLine()) != null; ) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                Thread.ofVirtual().start(() -> err.lines().forEach(l -> { }));
                return m.group(1);
            }
            said.append(line).append('\n');
        }
        throw new AssertionError("chromium ended before it listened:\n" + said);
    }

    private void attach(int width, int height) throws Exception {
        String target = (String) call(null, "Target.createTarget", Map.of("url", "about:blank")).get("targetId");
        session = (String) call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true)).get("sessionId");
        call("Page.enable", Map.of());
        call("Runtime.enable", Map.of());
        call("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", false));
    }

    /** Loads {@code url}; returns when its document has loaded (its scripts may still be fetching). */
    void open(String url) throws Exception {
        call("Page.navigate", Map.of("url", url));
        org.awaitility.Awaitility.await(url + " loads").atMost(TIMEOUT).until(() -> "complete".equals(eval("document.readyState")));
    }

    /** The value of a JavaScript expression in the page (a promise is awaited); a thrown error fails the test. */
    Object eval(String expression) throws Exception {
        Map<String, Object> result = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (result.containsKey("exceptionDetails")) throw new AssertionError(expression + " threw: " + Json.pretty(result.get("exceptionDetails")));
        @SuppressWarnings("unchecked")
        Map<String, Object> value = (Map<String, Object>) result.get("result");
        return value.get("value");
    }

    /** A PNG of the page's viewport, written to {@code file}. */
    void screenshot(Path file) throws Exception {
        String data = (String) call("Page.captureScreenshot", Map.of("format", "png")).get("data");
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(data));
    }

    private Map<String, Object> call(String method, Map<String, Object> params) throws Exception {
        return call(session, method, params);
    }

    private Map<String, Object> call(String sessionId, String method, Map<String, Object> params) throws Exception {
        long id = ids.incrementAndGet();
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", id);
        if (sessionId != null) message.put("sessionId", sessionId);
        message.put("method", method);
        message.put("params", params);
        CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
        pending.put(id, answer);
        synchronized (socket) {
            socket.sendText(Json.compact(message), true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        return answer.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    @SuppressWarnings("unchecked")
    private void received(String text) {
        Map<String, Object> message = (Map<String, Object>) Json.parse(text);
        Object id = message.get("id");
        if (id == null) return; // an event: none is followed
        CompletableFuture<Map<String, Object>> answer = pending.remove(((Number) id).longValue());
        if (answer == null) return;
        if (message.containsKey("error")) answer.completeExceptionally(new AssertionError("DevTools: " + Json.pretty(message.get("error"))));
        else answer.complete((Map<String, Object>) message.get("result"));
    }

    /** Puts a message's frames together and hands each whole message on. */
    private static final class Listener implements WebSocket.Listener {
        private final java.util.function.Consumer<String> whole;
        private final StringBuilder parts = new StringBuilder();

        Listener(java.util.function.Consumer<String> whole) {
            this.whole = whole;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            parts.append(data);
            if (last) {
                String message = parts.toString();
                parts.setLength(0);
                whole.accept(message);
            }
            socket.request(1);
            return null;
        }
    }

    @Override
    public void close() throws Exception {
        socket.abort();
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
