package io.muster.engine.resource.exec;

import io.muster.engine.process.ProcessGroups;
import io.muster.engine.process.ProcessRunner;
import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Refreshable;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import io.muster.engine.template.IncompleteValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs {@code command} unless a guard says the work is done: {@code creates} exists, {@code onlyif}
 * fails, {@code unless} succeeds, or {@code refreshonly} and nothing notified it. Guards run in noop too;
 * the command itself only when applying, except a {@code query}, which only reads and so runs in noop too
 * (its stdout is a value known at check time) and is never a change. Under {@code muster run} it is checked
 * again whenever a line comes out of {@code watchcmd} or one of {@code watchfiles} changes. A sensitive
 * exec shows neither its commands nor their output in messages and logs. Without {@code guards_on_refresh} a
 * refresh runs the command whatever its guards say, as a CCM exec's subscribe does; with {@code logoutput} each line
 * the command prints is logged.
 */
record ExecResource(Command command, Command onlyif, Command unless, Path creates, boolean refreshonly, boolean query,
                    Set<Long> returns, ProcessRunner runner, Command watchcmd, List<Path> watchfiles, boolean sensitive,
                    boolean guardsOnRefresh, boolean logOutput)
        implements Refreshable, Edgeable, Foreseeable {

    @Override
    public void validate() throws InvalidResourceException {
        if ((runner.user() != null || runner.group() != null) && !"root".equals(System.getProperty("user.name"))) {
            throw new InvalidResourceException(runner.user() != null ? "user" : "group",
                    "running a command as another user or group needs muster to run as root");
        }
        if (query && refreshonly) {
            throw new InvalidResourceException("refreshonly", "a query runs on every check; it cannot also be refreshonly");
        }
    }

    @Override
    public Set<String> provides() {
        return Set.of();
    }

    @Override
    public List<List<String>> wants() {
        return runner.cwd() == null ? List.of() : List.of(List.of(Edgeable.pathUid(runner.cwd())));
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        if (refreshonly && !context.refresh()) return Result.STABLE;
        if (guardsOnRefresh || !context.refresh()) {
            if (creates != null && Files.exists(creates)) return Result.STABLE;
            if (onlyif != null && guard(onlyif, context) != 0) return Result.STABLE;
            if (unless != null && guard(unless, context) == 0) return Result.STABLE;
        }
        if (query) return Result.STABLE.withOutputs(execute(context));
        List<Change> executed = List.of(new Change("executed", null, null, null));
        if (!apply) return Result.changed(executed);
        return Result.changed(executed).withOutputs(execute(context));
    }

    /**
     * A program not found, a user, group or working directory that does not exist: unless a resource before it
     * runs commands (which may install the program or add the user) or makes the program or directory.
     */
    @Override
    public String failureToCome(Upstream upstream) throws InterruptedException {
        if (command == null || upstream.runsCommands()) return null;
        String program = command.argv().getFirst();
        if (program.startsWith("/") && upstream.mayMake(Path.of(program))) return null;
        if (runner.cwd() != null && upstream.mayMake(runner.cwd())) return null;
        return runner.cannotStart(command.argv(), command.quoted());
    }

    /** Runs the command; its values, or an exception when it exits with a code not in {@code returns}. */
    private Map<String, Object> execute(Context context) throws Exception {
        ProcessRunner.Outcome outcome = run(command);
        if (logOutput && !sensitive) outcome.stdout().text().lines().forEach(line -> context.log().info(line));
        if (!returns.contains((long) outcome.exitCode())) {
            String detail = sensitive ? "" : lastLine(outcome.stderr().text().isBlank() ? outcome.stdout().text() : outcome.stderr().text());
            throw new Exception(command.quoted() + " exited with " + outcome.exitCode() + " (expected "
                    + (returns.size() == 1 ? returns.iterator().next() : "one of " + returns) + ")"
                    + (detail.isEmpty() ? "" : ": " + detail));
        }
        return Map.of(
                "stdout", value("stdout", outcome.stdout(), context),
                "stderr", value("stderr", outcome.stderr(), context),
                "exit_code", (long) outcome.exitCode());
    }

    /** The stream as a value; cut at the limit, it is marked incomplete so that whoever reads it fails. */
    private static Object value(String stream, ProcessRunner.Output output, Context context) {
        if (!output.truncated()) return stripTrailingNewlines(output.text());
        long size = ProcessRunner.DEFAULT_OUTPUT_LIMIT + output.dropped();
        context.log().warn("{} was {} bytes; only the first {} are kept, and reading it fails", stream, size, ProcessRunner.DEFAULT_OUTPUT_LIMIT);
        return new IncompleteValue("the command printed " + size + " bytes to " + stream + "; muster keeps "
                + ProcessRunner.DEFAULT_OUTPUT_LIMIT + " (1 MiB), so the value is incomplete");
    }

    @Override
    public void watch(Watcher watcher) throws Exception {
        if (watchcmd == null && watchfiles.isEmpty()) return;
        for (Path file : watchfiles) watcher.hold(watcher.watchPath(file, watcher::changed));
        if (watchcmd == null) watcher.ready();
        else watchLines(watcher);
    }

    /**
     * Each line {@code watchcmd} prints is an event; its end is a failure of the watch (retried per
     * meta.retry). Lines are not kept, only their ends counted, so a line of any length costs one buffer;
     * the newlines of one read make one event. They are read on a thread of their own: a blocked pipe read
     * cannot be interrupted, but killing the process ends it.
     */
    private void watchLines(Watcher watcher) throws Exception {
        Process process = runner.start(watchcmd.argv(), watchcmd.quoted(), ProcessBuilder.Redirect.DISCARD);
        Thread reader = Thread.ofVirtual().start(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream out = process.getInputStream()) {
                for (int n; (n = out.read(buffer)) >= 0; ) {
                    if (containsNewline(buffer, n)) watcher.changed();
                }
            } catch (IOException e) {
                // the process is gone
            }
        });
        try {
            watcher.ready();
            int exitCode = process.waitFor();
            reader.join();
            throw new IOException("watchcmd " + watchcmd.quoted() + " exited with " + exitCode);
        } finally {
            ProcessGroups.kill(process);
        }
    }

    private static boolean containsNewline(byte[] buffer, int length) {
        for (int i = 0; i < length; i++) {
            if (buffer[i] == '\n') return true;
        }
        return false;
    }

    private int guard(Command guard, Context context) throws Exception {
        ProcessRunner.Outcome outcome = run(guard);
        if (context.debug()) context.log().debug("guard {} exited with {}", guard.quoted(), outcome.exitCode());
        return outcome.exitCode();
    }

    private ProcessRunner.Outcome run(Command command) throws Exception {
        return runner.run(command.argv(), command.quoted());
    }

    /** Like shell command substitution: {@code $(hostname)} has no trailing newline either. */
    private static String stripTrailingNewlines(String s) {
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) end--;
        return s.substring(0, end);
    }

    private static String lastLine(String output) {
        String trimmed = stripTrailingNewlines(output);
        int nl = trimmed.lastIndexOf('\n');
        return (nl < 0 ? trimmed : trimmed.substring(nl + 1)).strip();
    }
}
