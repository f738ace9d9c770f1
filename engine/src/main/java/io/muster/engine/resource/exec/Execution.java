package io.muster.engine.resource.exec;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How commands run for one exec resource: working directory, environment, search path, timeout and
 * user. Output is captured up to {@link #OUTPUT_LIMIT} bytes per stream; the rest is counted, not kept.
 */
record Execution(Path cwd, Map<String, String> environment, List<String> path, Duration timeout, String user, String group) {
    static final int OUTPUT_LIMIT = 1 << 20;

    record Outcome(int exitCode, String stdout, String stderr) {}

    Outcome run(Command command) throws IOException, InterruptedException {
        Process process = start(command, ProcessBuilder.Redirect.PIPE);
        Capture out = new Capture(process.getInputStream());
        Capture err = new Capture(process.getErrorStream());
        Thread.ofVirtual().start(out);
        Thread.ofVirtual().start(err);
        try {
            if (!finishes(process)) {
                kill(process);
                throw new IOException("'" + command + "' timed out after " + seconds(timeout) + " and was killed");
            }
        } catch (InterruptedException e) { // the run is stopping: leave no child behind
            kill(process);
            throw e;
        }
        return new Outcome(process.exitValue(), out.text(), err.text());
    }

    /** Starts {@code command} with this execution's directory, environment and user; stdin is empty. */
    Process start(Command command, ProcessBuilder.Redirect stderr) throws IOException {
        List<String> argv = new ArrayList<>();
        if (user != null || group != null) argv.addAll(switchUser());
        argv.addAll(command.argv());
        if (!command.shell()) argv.set(argv.size() - command.argv().size(), resolve(command.argv().get(0)));
        ProcessBuilder builder = new ProcessBuilder(argv)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(stderr);
        if (cwd != null) builder.directory(cwd.toFile());
        builder.environment().putAll(environment);
        if (!path.isEmpty()) builder.environment().put("PATH", String.join(File.pathSeparator, path));
        try {
            return builder.start();
        } catch (IOException e) {
            throw new IOException("cannot run '" + command + "': " + reason(e));
        }
    }

    static void kill(Process process) throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
    }

    private static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms / 1000.0 + "s";
    }

    private boolean finishes(Process process) throws InterruptedException {
        if (!timeout.isZero()) return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        process.waitFor();
        return true;
    }

    /** A bare program name is looked up in {@code path} when given (else the inherited PATH). */
    private String resolve(String program) throws IOException {
        if (program.contains("/") || path.isEmpty()) return program;
        for (String dir : path) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) return candidate.toString();
        }
        throw new IOException("'" + program + "' not found in path " + String.join(":", path));
    }

    private List<String> switchUser() {
        List<String> prefix = new ArrayList<>(List.of("setpriv"));
        if (user != null) prefix.addAll(List.of("--reuid=" + user, "--init-groups"));
        if (group != null) prefix.add("--regid=" + group);
        else if (user != null) prefix.add("--regid=" + user);
        prefix.add("--");
        return prefix;
    }

    private static String reason(IOException e) {
        String message = String.valueOf(e.getMessage());
        int colon = message.lastIndexOf("error=");
        return colon >= 0 ? message.substring(colon) : message;
    }

    /** Drains one stream of the child, keeping at most the limit. */
    private static final class Capture implements Runnable {
        private final InputStream in;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private long dropped;
        private volatile boolean done;

        Capture(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    int keep = (int) Math.max(0, Math.min(n, OUTPUT_LIMIT - kept.size()));
                    kept.write(buffer, 0, keep);
                    dropped += n - keep;
                }
            } catch (IOException ignored) {
                // the process was killed; what was read is what there is
            } finally {
                synchronized (this) {
                    done = true;
                    notifyAll();
                }
            }
        }

        /** Waits briefly for the stream's end: a background grandchild may hold the pipe open forever. */
        synchronized String text() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            for (long left; !done && (left = deadline - System.nanoTime()) > 0; ) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            String text = kept.toString(StandardCharsets.UTF_8);
            return dropped == 0 ? text : text + "\n[muster: " + dropped + " more bytes of output not kept]";
        }
    }
}
