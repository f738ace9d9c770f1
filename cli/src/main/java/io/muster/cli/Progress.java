package io.muster.cli;

import io.muster.engine.report.ResourceReport;
import io.muster.engine.run.Activity;
import io.muster.engine.util.fs.Terminal;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What runs for more than a moment, so that a five-minute command does not look like a hang. On a terminal, one
 * line on standard error redrawn in place every second ({@code running: exec#build 12 s, file#/srv/big 3 s}),
 * cleared before each report line and at the end; elsewhere (a pipe, a log) a plain line per resource every
 * {@value #PLAIN_EVERY_SECONDS} s ({@code still running: exec#build (20 s)}). Standard output, the report, is left
 * as it is.
 */
final class Progress implements Activity, AutoCloseable {
    /** Shorter than this, a resource is not worth a line. */
    private static final long SHOWN_AFTER_SECONDS = 2;
    static final long PLAIN_EVERY_SECONDS = 10;
    private static final String CLEAR_LINE = "\r\u001b[K";

    private final PrintWriter err;
    private final boolean terminal;
    private final int width;
    /** Each running resource's start ({@link System#nanoTime}), the longest-running first. */
    private final Map<String, Long> running = new LinkedHashMap<>();
    /** Plain lines: how many periods each running resource was told at. */
    private final Map<String, Long> told = new LinkedHashMap<>();
    private final ScheduledExecutorService ticker;
    private boolean drawn;
    /** Whether the ticker runs: from the first resource on, so that a run that never starts leaves no thread. */
    private boolean ticking;

    /** @param err null for none */
    private Progress(PrintWriter err, boolean terminal, int width) {
        this.err = err;
        this.terminal = terminal;
        this.width = width;
        ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("muster-progress").factory());
    }

    /** Progress on {@code err}: a live line when standard error is a terminal, else plain lines. */
    static Progress on(PrintWriter err) {
        return new Progress(err, Terminal.standardError(), width(System.getenv("COLUMNS")));
    }

    /** No progress at all (--quiet). */
    static Progress silent() {
        return new Progress(null, false, 0);
    }

    /** The terminal's width, as the shell exports it, else the usual 80: a longer line would wrap and not be redrawn. */
    private static int width(String columns) {
        try {
            return columns == null ? 80 : Math.max(20, Integer.parseInt(columns.strip()));
        } catch (NumberFormatException e) {
            return 80;
        }
    }

    @Override
    public synchronized void started(String id) {
        running.put(id, System.nanoTime());
        told.remove(id);
        if (ticking || err == null || ticker.isShutdown()) return;
        ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        ticking = true;
    }

    @Override
    public synchronized void finished(String id) {
        running.remove(id);
        told.remove(id);
    }

    /** {@code report}, printing each resource's line where the live line was. */
    Consumer<ResourceReport> before(Consumer<ResourceReport> report) {
        return r -> {
            clear();
            report.accept(r);
        };
    }

    /** Takes the live line away, so that a report line is printed where it was. */
    synchronized void clear() {
        if (!drawn) return;
        err.print(CLEAR_LINE);
        err.flush();
        drawn = false;
    }

    private synchronized void tick() {
        long now = System.nanoTime();
        List<String> shown = new ArrayList<>();
        for (Map.Entry<String, Long> r : running.entrySet()) {
            long seconds = TimeUnit.NANOSECONDS.toSeconds(now - r.getValue());
            if (seconds < SHOWN_AFTER_SECONDS) continue;
            if (terminal) {
                shown.add(String.format(Locale.ROOT, "%s %d s", r.getKey(), seconds));
            } else if (seconds / PLAIN_EVERY_SECONDS > told.getOrDefault(r.getKey(), 0L)) {
                told.put(r.getKey(), seconds / PLAIN_EVERY_SECONDS);
                err.printf(Locale.ROOT, "still running: %s (%d s)%n", r.getKey(), seconds / PLAIN_EVERY_SECONDS * PLAIN_EVERY_SECONDS);
            }
        }
        if (terminal) draw(shown);
        err.flush();
    }

    private void draw(List<String> shown) {
        if (shown.isEmpty()) {
            clear();
            return;
        }
        String line = "running: " + String.join(", ", shown);
        if (line.length() > width - 1) line = line.substring(0, width - 2) + "…";
        err.print(CLEAR_LINE + line);
        drawn = true;
    }

    @Override
    public void close() {
        synchronized (this) { // started() schedules the ticker under this lock: it sees it shut down, or schedules before
            ticker.shutdownNow();
        }
        try {
            ticker.awaitTermination(1, TimeUnit.SECONDS); // a tick under way draws no line after the clear below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        clear();
    }
}
