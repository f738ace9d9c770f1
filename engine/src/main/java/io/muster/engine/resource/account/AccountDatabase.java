package io.muster.engine.resource.account;

import io.muster.engine.process.ProcessRunner;
import io.muster.engine.process.SystemTool;
import io.muster.engine.resource.Watcher;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The host's users and groups as {@code getent} answers (passwd, group, shadow): read on every check, never
 * cached, since another resource (or an admin) may have changed them since.
 */
final class AccountDatabase {
    private AccountDatabase() {}

    /** A passwd entry. */
    record UserEntry(String name, long uid, long gid, String comment, String home, String shell) {}

    /** A group entry; {@code members} are its supplementary members, as listed in the group database. */
    record GroupEntry(String name, long gid, List<String> members) {}

    static Optional<UserEntry> user(String name) throws IOException, InterruptedException {
        return entry("passwd", name).map(line -> {
            String[] f = line.split(":", -1);
            return new UserEntry(f[0], Long.parseLong(f[2]), Long.parseLong(f[3]), f[4], f[5], f[6]);
        });
    }

    /** A group by name or by gid. */
    static Optional<GroupEntry> group(String nameOrGid) throws IOException, InterruptedException {
        return entry("group", nameOrGid).map(line -> {
            String[] f = line.split(":", -1);
            List<String> members = f[3].isEmpty() ? List.of() : Arrays.asList(f[3].split(","));
            return new GroupEntry(f[0], Long.parseLong(f[2]), List.copyOf(members));
        });
    }

    /** The user's password hash from the shadow database, or empty when it has no entry there. */
    static Optional<String> passwordHash(String name) throws IOException, InterruptedException {
        return entry("shadow", name).map(line -> line.split(":", -1)[1]);
    }

    /** The names of the groups a user belongs to besides its primary one. */
    static List<String> supplementaryGroups(String name, long primaryGid) throws IOException, InterruptedException {
        List<String> groups = new ArrayList<>();
        String[] names = SystemTool.output(List.of("id", "-Gn", "--", name)).strip().split("\\s+");
        String[] ids = SystemTool.output(List.of("id", "-G", "--", name)).strip().split("\\s+");
        for (int i = 0; i < names.length && i < ids.length; i++) {
            if (!names[i].isEmpty() && Long.parseLong(ids[i]) != primaryGid) groups.add(names[i]);
        }
        return groups;
    }

    /**
     * Calls {@link Watcher#changed()} whenever one of the local database files changes (the shadow tools replace
     * them by rename), until the watch is cancelled. Accounts that come from elsewhere (LDAP) are checked on other events only.
     */
    static void watch(Watcher watcher, List<Path> files) throws Exception {
        for (Path file : files) watcher.hold(watcher.watchPath(file, watcher::changed));
        watcher.ready();
    }

    /** The first line {@code getent DATABASE KEY} prints; empty when there is no such entry (exit code 2). */
    private static Optional<String> entry(String database, String key) throws IOException, InterruptedException {
        List<String> argv = List.of("getent", database, "--", key);
        ProcessRunner.Outcome outcome = SystemTool.run(argv);
        if (outcome.exitCode() == 2) return Optional.empty();
        if (outcome.exitCode() != 0) throw SystemTool.failure(SystemTool.quoted(argv), outcome);
        return outcome.stdout().text().lines().findFirst();
    }
}
