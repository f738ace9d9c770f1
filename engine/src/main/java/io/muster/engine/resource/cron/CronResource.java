package io.muster.engine.resource.cron;

import io.muster.engine.process.ProcessRunner;
import io.muster.engine.process.SystemTool;
import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import io.muster.engine.util.TextDiff;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One named entry in a user's crontab. A change rewrites the whole crontab with that entry replaced, added or
 * removed, every other line kept. A user that does not exist fails it (in noop only when nothing before it may make
 * the user). Comes after its managed user; under {@code muster run} it watches the user's
 * crontab in cron's spool directory (Debian's {@code /var/spool/cron/crontabs}).
 */
record CronResource(String name, String user, boolean present, Schedule schedule, String command, List<String> environment)
        implements Edgeable, Foreseeable {
    private static final Path SPOOL = Path.of("/var/spool/cron/crontabs");

    /**
     * When the job runs: the five fields, or a special schedule.
     *
     * @param fields the five fields, {@code *} where unset
     * @param set the names of the fields the manifest set
     * @param special {@code reboot}, {@code daily}…, or null
     */
    record Schedule(String fields, List<String> set, String special) {
        String text() {
            return special == null ? fields : "@" + special;
        }
    }

    @Override
    public void validate() throws InvalidResourceException {
        if (name.contains("\n")) throw new InvalidResourceException("name", "a cron entry's name cannot contain a newline");
        if (present && command == null) throw new InvalidResourceException("command", "a present cron entry needs a command");
        if (schedule.special() != null && !schedule.set().isEmpty()) {
            throw new InvalidResourceException("special", "a special schedule (@" + schedule.special() + ") cannot be combined with "
                    + String.join(", ", schedule.set()));
        }
    }

    @Override
    public Set<String> provides() {
        return Set.of();
    }

    @Override
    public List<List<String>> wants() {
        return List.of(List.of("user:" + user));
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        boolean exists = userExists();
        if (!exists && apply) throw new IOException("user '" + user + "' does not exist on this host");
        Crontab current = exists ? read() : Crontab.parse(""); // in noop, a user resource before it may make the user
        List<String> had = current.entry(name);
        Crontab wanted = present ? current.with(name, lines()) : current.without(name);
        if (wanted.equals(current)) return Result.STABLE;
        List<Change> changes = new ArrayList<>();
        if (had.isEmpty()) changes.add(Change.of("ensure", "absent", "present"));
        else if (!present) changes.add(Change.of("ensure", "present", "absent"));
        else changes.add(Change.of("entry", String.join(" | ", had.subList(1, had.size())), String.join(" | ", lines().subList(1, lines().size()))));
        if (context.diffs()) {
            changes.add(Change.withDiff("crontab", TextDiff.unified("crontab of " + user,
                    current.text().getBytes(StandardCharsets.UTF_8), wanted.text().getBytes(StandardCharsets.UTF_8))));
        }
        if (apply) install(wanted);
        return Result.changed(changes);
    }

    @Override
    public void watch(Watcher watcher) throws Exception {
        watcher.hold(watcher.watchPath(SPOOL.resolve(user), watcher::changed));
        watcher.ready();
    }

    /** A user that does not exist, when nothing before this entry runs commands (a user resource) that may make it. */
    @Override
    public String failureToCome(Upstream upstream) throws Exception {
        return upstream.runsCommands() || userExists() ? null : "user '" + user + "' does not exist on this host";
    }

    private boolean userExists() throws Exception {
        List<String> argv = List.of("getent", "passwd", "--", user);
        ProcessRunner.Outcome outcome = SystemTool.run(argv);
        if (outcome.exitCode() == 2) return false;
        if (outcome.exitCode() != 0) throw SystemTool.failure(SystemTool.quoted(argv), outcome);
        return true;
    }

    /** The entry's lines: marker, environment, job. */
    private List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(Crontab.MARKER + name);
        lines.addAll(environment);
        lines.add(schedule.text() + " " + command);
        return lines;
    }

    private Crontab read() throws Exception {
        List<String> argv = List.of("crontab", "-u", user, "-l");
        ProcessRunner.Outcome outcome = SystemTool.run(argv);
        if (outcome.exitCode() == 0) return Crontab.parse(outcome.stdout().text());
        if (outcome.stderr().text().startsWith("no crontab for")) return Crontab.parse("");
        throw SystemTool.failure(SystemTool.quoted(argv), outcome);
    }

    /** Installs {@code crontab} from a file only root can read (crontab copies it into the spool). */
    private void install(Crontab crontab) throws Exception {
        Path file = Files.createTempFile("muster-crontab-", "", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(file, crontab.text());
            SystemTool.output(List.of("crontab", "-u", user, file.toString()));
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
