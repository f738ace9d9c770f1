package io.muster.remote.ssh;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads one output stream of a remote command (stdout or stderr) on its own thread and hands each line, as it
 * comes, to the consumer; a last line without its newline is handed too. The stream ending, or breaking because the
 * channel closed, ends the thread: the connection decides what that means.
 */
final class LineStream {
    private final Thread thread;
    private volatile RuntimeException consumerFailure;

    private LineStream(String name, InputStream in, Consumer<String> lines) {
        this.thread = Thread.ofVirtual().name(name).start(() -> pump(in, lines));
    }

    static LineStream start(String name, InputStream in, Consumer<String> lines) {
        return new LineStream(name, in, lines);
    }

    private void pump(InputStream in, Consumer<String> lines) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) lines.accept(line);
        } catch (IOException e) {
            // the channel closed under the reader (interrupt, close, a dropped connection)
        } catch (RuntimeException e) {
            consumerFailure = e;
        }
    }

    /** Waits until the stream has ended; rethrows what the consumer threw. */
    void join() throws InterruptedException {
        thread.join();
        if (consumerFailure != null) throw consumerFailure;
    }
}
