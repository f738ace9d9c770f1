package io.muster.engine.process;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How commands run: working directory, environment, search path, user and group, timeout and how much
 * output to keep. Each command leads a process group of its own ({@link ProcessGroups}): a timeout or an
 * interrupt kills the group. Output is captured up to {@code outputLimit} bytes per stream; the rest is
 * counted, not kept. Messages name a command as its caller says ({@code name}), so a sensitive one can
 * stay unnamed.
 *
 * @param cwd the working directory, or null for muster's
 * @param environment variables added to muster's environment (or, as another user, to theirs)
 * @param searchPath where a bare program name is looked up instead of the command's PATH; empty for PATH
 * @param user run as this user (name or uid) with their groups and a login-like environment; null for muster's
 * @param group run with this primary group (name or gid); null for the user's (or muster's)
 * @param timeout how long a command may run before its group is killed; {@link Duration#ZERO} for no limit
 * @param killAtTimeout false: a command past its timeout is not killed but runs to its end, and then its success
 *     is a failure (CCM's command runner, whose deadline only ends its own wait); another exit code is its own
 * @param outputLimit how many bytes of each stream are kept
 * @param inheritEnvironment false: the command gets {@code environment} (and {@code searchPath} as PATH) alone,
 *     nothing of muster's or the user's environment (mgmt's exec); its program is still found through muster's PATH
 */
public record ProcessRunner(Path cwd, Map<String, String> environment, List<String> searchPath, String user, String group,
                            Duration timeout, boolean killAtTimeout, int outputLimit, boolean inheritEnvironment) {
    /** How much of each stream {@link #in} keeps: 1 MiB. */
    public static final int DEFAULT_OUTPUT_LIMIT = 1 << 20;
    /** What a login shell would have in PATH; a command as another user never sees root's. */
    public static final String LOGIN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    public ProcessRunner {
        environment = Map.copyOf(environment);
        searchPath = List.copyOf(searchPath);
        if (timeout.isNegative()) throw new IllegalArgumentException("negative timeout " + timeout);
        if (outputLimit < 0) throw new IllegalArgumentException("negative output limit " + outputLimit);
    }

    /** Runs commands in {@code cwd} (null for muster's) as muster's user, with its environment, for at most {@code timeout}. */
    public static ProcessRunner in(Path cwd, Duration timeout) {
        return new ProcessRunner(cwd, Map.of(), List.of(), null, null, timeout, true, DEFAULT_OUTPUT_LIMIT, true);
    }

    /** How a command ended: its exit code (128 + the signal when killed) and what it printed. */
    public record Outcome(int exitCode, Output stdout, Output stderr) {}

    /** What a stream carried: its first {@code outputLimit} bytes as UTF-8, and how many more were dropped. */
    public record Output(String text, long dropped) {
        public boolean truncated() {
            return dropped > 0;
        }
    }

    /**
     * Runs {@code argv} to its end, stdin empty, capturing its output.
     *
     * @param name how messages name the command ({@code 'make install'}, {@code the command (sensitive)})
     * @throws IOException when it cannot start (missing program, unknown user) or runs out of time (it is killed;
     *     or, not killed, it succeeded after its timeout)
     * @throws InterruptedException when interrupted; the command's group is killed first
     */
    public Outcome run(List<String> argv, String name) throws IOException, InterruptedException {
        Process process = start(argv, name, ProcessBuilder.Redirect.PIPE);
        Capture out = new Capture(process.getInputStream(), outputLimit);
        Capture err = new Capture(process.getErrorStream(), outputLimit);
        Thread.ofVirtual().start(out);
        Thread.ofVirtual().start(err);
        boolean late = false;
        try {
            if (!finishes(process)) {
                if (killAtTimeout) {
                    ProcessGroups.kill(process);
                    throw new IOException(name + " timed out after " + seconds(timeout) + " and was killed");
                }
                late = true;
                process.waitFor();
            }
        } catch (InterruptedException e) { // the run is stopping: leave no child behind
            ProcessGroups.kill(process);
            throw e;
        }
        if (late && process.exitValue() == 0) {
            throw new IOException(name + " succeeded only after its timeout of " + seconds(timeout) + ": context deadline exceeded");
        }
        return new Outcome(process.exitValue(), out.output(), err.output());
    }

    /**
     * Starts {@code argv} in a process group of its own, with this runner's directory, environment and user;
     * stdin is empty, stdout a pipe. As another user it gets that user's login-like environment, not muster's.
     * No timeout applies: whoever starts it ends it with {@link ProcessGroups#kill}.
     */
    public Process start(List<String> argv, String name, ProcessBuilder.Redirect stderr) throws IOException, InterruptedException {
        ProcessBuilder builder = prepare(argv, name).redirectError(stderr);
        try {
            return ProcessGroups.start(builder);
        } catch (IOException e) {
            throw new IOException("cannot run " + name + ": " + reason(e));
        }
    }

    /**
     * Why {@code argv} could not start now, as {@link #start} would say it: its user or group does not exist, its
     * working directory or its program is missing; null when nothing stands in its way. Starts nothing.
     */
    public String cannotStart(List<String> argv, String name) throws InterruptedException {
        if (cwd != null && !Files.isDirectory(cwd)) return "cannot run " + name + ": its working directory " + cwd + " does not exist";
        try {
            prepare(argv, name);
            return null;
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** The builder that starts {@code argv}: its program found, its user and group switched to, its environment set. */
    private ProcessBuilder prepare(List<String> argv, String name) throws IOException, InterruptedException {
        if (argv.isEmpty()) throw new IllegalArgumentException("no program to run");
        ProcessBuilder builder = new ProcessBuilder().redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        List<String> command = new ArrayList<>(ProcessGroups.prefix());
        if (user != null || group != null) command.addAll(switchUser(builder.environment()));
        if (cwd != null) builder.directory(cwd.toFile());
        Map<String, String> lookup = Map.copyOf(builder.environment()); // where the program is found when none is inherited
        if (!inheritEnvironment) builder.environment().clear();
        builder.environment().putAll(environment);
        if (!searchPath.isEmpty()) builder.environment().put("PATH", String.join(File.pathSeparator, searchPath));
        command.add(resolve(argv.get(0), name, inheritEnvironment ? builder.environment() : lookup));
        command.addAll(argv.subList(1, argv.size()));
        return builder.command(command);
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
     * The program to run: a bare name is looked up in {@code searchPath} when given, else in the PATH the
     * command gets. A program that is missing or not executable is reported as such here, rather than as the
     * exit code of the prefix that would have run it.
     */
    private String resolve(String program, String name, Map<String, String> environment) throws IOException {
        if (program.contains("/")) {
            Path file = where(program);
            if (!Files.exists(file)) throw new IOException("cannot run " + name + ": no such file");
            if (!Files.isRegularFile(file) || !Files.isExecutable(file)) throw new IOException("cannot run " + name + ": not an executable file");
            return runnable(file, program, name);
        }
        List<String> dirs = searchPath.isEmpty() ? List.of(environment.getOrDefault("PATH", "").split(File.pathSeparator)) : searchPath;
        for (String dir : dirs) {
            Path candidate = where(dir.isEmpty() ? "." : dir).resolve(program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return runnable(candidate, candidate.toString(), name);
        }
        String where = searchPath.isEmpty() ? "PATH (PATH=" : "the exec's path (path: ";
        throw new IOException("cannot run " + name + ": not found in " + where + String.join(":", dirs) + ")");
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

    private static final Pattern ERRNO = Pattern.compile("error[=:] ?(\\d+)");

    /**
     * Why a program that {@link #resolve} found could not start, in words rather than the JDK's
     * {@code Exec failed, error: 2}: the working directory is gone, or the system's own text for the error.
     */
    private String reason(IOException e) {
        String message = String.valueOf(e.getMessage());
        Matcher errno = ERRNO.matcher(message);
        if (!errno.find()) return message;
        if (errno.group(1).equals("2") && cwd != null && !Files.isDirectory(cwd)) return "its working directory " + cwd + " does not exist";
        int text = message.indexOf(", ", errno.end());
        String said = text >= 0 ? message.substring(text + 2) : message.substring(errno.end()).replaceAll("^[ (]+|\\)$", "");
        return said.isEmpty() ? "error " + errno.group(1) : said + " (errno " + errno.group(1) + ")";
    }

    /**
     * {@code program}, unless the interpreter its {@code #!} line names is missing: setsid would start and then
     * fail to run it, with an exit code a reader would take for the program's own.
     */
    private static String runnable(Path file, String program, String name) throws IOException {
        String interpreter = missingInterpreter(file);
        if (interpreter != null) throw new IOException("cannot run " + name + ": its interpreter " + interpreter + " (the #! line) was not found");
        return program;
    }

    /** The program {@code #!} names, when {@code file} starts with one and it is missing; else null. */
    private static String missingInterpreter(Path file) {
        try (var in = Files.newInputStream(file)) {
            String head = new String(in.readNBytes(256), StandardCharsets.UTF_8);
            if (!head.startsWith("#!")) return null;
            String line = head.substring(2).lines().findFirst().orElse("").strip();
            String program = line.split("\\s+")[0];
            return program.isEmpty() || Files.isExecutable(Path.of(program)) ? null : program;
        } catch (IOException e) {
            return null;
        }
    }

    /** Drains one stream of the child, keeping at most the limit. */
    private static final class Capture implements Runnable {
        private final InputStream in;
        private final int limit;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private long dropped;
        private boolean done;

        Capture(InputStream in, int limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    synchronized (this) {
                        int keep = (int) Math.max(0, Math.min(n, limit - kept.size()));
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
