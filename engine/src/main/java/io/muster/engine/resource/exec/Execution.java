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
 * user. Each command leads a process group of its own ({@link ProcessGroups}): a timeout or an interrupt
 * kills the group. Output is captured up to {@link #OUTPUT_LIMIT} bytes per stream; the rest is counted,
 * not kept.
 */
record Execution(Path cwd, Map<String, String> environment, List<String> path, Duration timeout, String user, String group) {
    static final int OUTPUT_LIMIT = 1 << 20;

    record Outcome(int exitCode, Output stdout, Output stderr) {}

    /** What a stream carried: its first {@link #OUTPUT_LIMIT} bytes, and how many more were dropped. */
    record Output(String text, long dropped) {
        boolean truncated() {
            return dropped > 0;
        }
    }

    Outcome run(Command command) throws IOException, InterruptedException {
        Process process = start(command, ProcessBuilder.Redirect.PIPE);
        Capture out = new Capture(process.getInputStream());
        Capture err = new Capture(process.getErrorStream());
        Thread.ofVirtual().start(out);
        Thread.ofVirtual().start(err);
        try {
            if (!finishes(process)) {
                ProcessGroups.kill(process);
                throw new IOException(command.quoted() + " timed out after " + seconds(timeout) + " and was killed");
            }
        } catch (InterruptedException e) { // the run is stopping: leave no child behind
            ProcessGroups.kill(process);
            throw e;
        }
        return new Outcome(process.exitValue(), out.output(), err.output());
    }

    /**
     * Starts {@code command} in a process group of its own, with this execution's directory, environment
     * and user; stdin is empty. As another user it gets that user's login-like environment, not muster's.
     */
    Process start(Command command, ProcessBuilder.Redirect stderr) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder()
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(stderr);
        List<String> argv = new ArrayList<>(ProcessGroups.prefix());
        if (user != null || group != null) argv.addAll(switchUser(builder.environment()));
        if (cwd != null) builder.directory(cwd.toFile());
        builder.environment().putAll(environment);
        if (!path.isEmpty()) builder.environment().put("PATH", String.join(File.pathSeparator, path));
        argv.add(command.shell() ? command.argv().get(0) : resolve(command, builder.environment()));
        argv.addAll(command.argv().subList(1, command.argv().size()));
        try {
            return ProcessGroups.start(builder.command(argv));
        } catch (IOException e) {
            throw new IOException("cannot run " + command.quoted() + ": " + reason(e));
        }
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

    /**
     * The program to run: a bare name is looked up in {@code path} when given, else in the PATH the command
     * gets. A program that is missing or not executable is reported as such here, rather than as the exit
     * code of the prefix that would have run it.
     */
    private String resolve(Command command, Map<String, String> environment) throws IOException {
        String program = command.argv().get(0);
        if (program.contains("/")) {
            Path file = where(program);
            if (!Files.exists(file)) throw new IOException("cannot run " + command.quoted() + ": no such file");
            if (!Files.isRegularFile(file) || !Files.isExecutable(file)) throw new IOException("cannot run " + command.quoted() + ": not an executable file");
            return program;
        }
        List<String> dirs = path.isEmpty() ? List.of(environment.getOrDefault("PATH", "").split(File.pathSeparator)) : path;
        for (String dir : dirs) {
            Path candidate = where(dir.isEmpty() ? "." : dir).resolve(program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return candidate.toString();
        }
        throw new IOException("cannot run " + command.quoted() + ": not found in " + (path.isEmpty() ? "PATH " : "path ") + String.join(":", dirs));
    }

    /** A path as the command sees it: relative ones start in its working directory. */
    private Path where(String path) {
        return cwd == null ? Path.of(path) : cwd.resolve(path);
    }

    /**
     * The {@code setpriv} prefix. A user gets their primary group from passwd (unless {@code group} says
     * otherwise) and their supplementary groups, and {@code environment} is reset to theirs; a group alone
     * keeps root's user and drops root's supplementary groups.
     */
    private List<String> switchUser(Map<String, String> environment) throws IOException, InterruptedException {
        List<String> prefix = new ArrayList<>(List.of("setpriv"));
        if (user != null) {
            Account account = Account.user(user);
            environment.clear();
            environment.putAll(account.environment());
            long gid = group != null ? Account.groupId(group) : account.gid();
            prefix.addAll(List.of("--reuid=" + account.uid(), "--regid=" + gid, "--init-groups"));
        } else {
            prefix.addAll(List.of("--regid=" + Account.groupId(group), "--clear-groups"));
        }
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
        private boolean done;

        Capture(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    synchronized (this) {
                        int keep = (int) Math.max(0, Math.min(n, OUTPUT_LIMIT - kept.size()));
                        kept.write(buffer, 0, keep);
                        dropped += n - keep;
                    }
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

        /**
         * Waits briefly for the stream's end: a background grandchild that outlived the command (in its
         * group, or one that left it) may hold the pipe open forever. What came until then is the output.
         */
        synchronized Output output() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            for (long left; !done && (left = deadline - System.nanoTime()) > 0; ) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return new Output(kept.toString(StandardCharsets.UTF_8), dropped);
        }
    }
}
