package io.muster.engine.resource.account;

import io.muster.engine.process.SystemTool;
import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A user as {@code getent passwd} (and {@code shadow}, {@code id -G}) has it. Created with {@code useradd},
 * changed with one {@code usermod} carrying every difference, removed with {@code userdel} ({@code -r} with
 * {@code managehome}, which also makes the home at creation and moves it when {@code home} changes). {@code groups}
 * is the exact list of supplementary groups. Comes after its managed groups; {@code uid}, {@code gid} and
 * {@code home} are values.
 */
record UserResource(String name, boolean present, Wanted wanted, boolean system, boolean managehome) implements Edgeable {
    private static final String HIDDEN = "(sensitive)";

    /** The properties that are converged when set; null leaves one as the system has it. */
    record Wanted(Long uid, String gid, List<String> groups, String home, String shell, String comment, String password) {
        /** Never shows the password hash, in a log line or a failed assertion. */
        @Override
        public String toString() {
            return "Wanted[uid=" + uid + ", gid=" + gid + ", groups=" + groups + ", home=" + home + ", shell=" + shell
                    + ", comment=" + comment + ", password=" + (password == null ? null : HIDDEN) + "]";
        }
    }

    @Override
    public Set<String> provides() {
        return Set.of("user:" + name);
    }

    @Override
    public List<List<String>> wants() {
        List<List<String>> wants = new ArrayList<>();
        if (wanted.gid() != null && !wanted.gid().matches("[0-9]+")) wants.add(List.of("group:" + wanted.gid()));
        if (wanted.groups() != null) for (String group : wanted.groups()) wants.add(List.of("group:" + group));
        return wants;
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        Optional<AccountDatabase.UserEntry> current = AccountDatabase.user(name);
        if (!present) {
            if (current.isEmpty()) return Result.STABLE;
            if (apply) SystemTool.output(managehome ? List.of("userdel", "-r", "--", name) : List.of("userdel", "--", name));
            return Result.changed(List.of(Change.of("ensure", "present", "absent")));
        }
        if (current.isEmpty()) return create(apply);
        AccountDatabase.UserEntry entry = current.get();
        List<Change> changes = new ArrayList<>();
        List<String> options = new ArrayList<>();
        if (wanted.uid() != null && wanted.uid() != entry.uid()) {
            changes.add(Change.of("uid", entry.uid(), wanted.uid()));
            options.addAll(List.of("-u", wanted.uid().toString()));
        }
        if (wanted.gid() != null && !sameGroup(wanted.gid(), entry.gid())) {
            changes.add(Change.of("gid", groupName(entry.gid()), wanted.gid()));
            options.addAll(List.of("-g", wanted.gid()));
        }
        if (wanted.groups() != null) {
            List<String> groups = AccountDatabase.supplementaryGroups(name, entry.gid());
            if (!Set.copyOf(groups).equals(Set.copyOf(wanted.groups()))) {
                changes.add(Change.of("groups", String.join(",", groups), String.join(",", wanted.groups())));
                options.addAll(List.of("-G", String.join(",", wanted.groups())));
            }
        }
        if (wanted.home() != null && !wanted.home().equals(entry.home())) {
            changes.add(Change.of("home", entry.home(), wanted.home()));
            options.addAll(managehome ? List.of("-d", wanted.home(), "-m") : List.of("-d", wanted.home()));
        }
        if (wanted.shell() != null && !wanted.shell().equals(entry.shell())) {
            changes.add(Change.of("shell", entry.shell(), wanted.shell()));
            options.addAll(List.of("-s", wanted.shell()));
        }
        if (wanted.comment() != null && !wanted.comment().equals(entry.comment())) {
            changes.add(Change.of("comment", entry.comment(), wanted.comment()));
            options.addAll(List.of("-c", wanted.comment()));
        }
        if (wanted.password() != null && !wanted.password().equals(AccountDatabase.passwordHash(name).orElse(null))) {
            changes.add(Change.of("password", HIDDEN, HIDDEN));
            options.addAll(List.of("-p", wanted.password()));
        }
        if (apply && !options.isEmpty()) change("usermod", options);
        Optional<AccountDatabase.UserEntry> now = apply && !options.isEmpty() ? AccountDatabase.user(name) : current;
        return new Result(changes, values(now.orElse(entry)), null);
    }

    /** Under {@code muster run}: a change to passwd, shadow or group (a {@code usermod} by hand) is checked at once. */
    @Override
    public void watch(Watcher watcher) throws Exception {
        AccountDatabase.watch(watcher, List.of(Path.of("/etc/passwd"), Path.of("/etc/shadow"), Path.of("/etc/group")));
    }

    private Result create(boolean apply) throws Exception {
        List<Change> changes = new ArrayList<>(List.of(Change.of("ensure", "absent", "present")));
        if (!apply) return Result.changed(changes);
        List<String> options = new ArrayList<>();
        if (wanted.uid() != null) options.addAll(List.of("-u", wanted.uid().toString()));
        if (wanted.gid() != null) options.addAll(List.of("-g", wanted.gid()));
        if (wanted.groups() != null && !wanted.groups().isEmpty()) options.addAll(List.of("-G", String.join(",", wanted.groups())));
        if (wanted.home() != null) options.addAll(List.of("-d", wanted.home()));
        if (wanted.shell() != null) options.addAll(List.of("-s", wanted.shell()));
        if (wanted.comment() != null) options.addAll(List.of("-c", wanted.comment()));
        if (wanted.password() != null) options.addAll(List.of("-p", wanted.password()));
        if (system) options.add("-r");
        options.add(managehome ? "-m" : "-M");
        change("useradd", options);
        AccountDatabase.UserEntry made = AccountDatabase.user(name).orElseThrow(() -> new IllegalStateException("useradd made no user " + name));
        return Result.changed(changes).withOutputs(values(made));
    }

    /** Runs {@code tool options -- name}; a failure quotes the command with the password hash left out. */
    private void change(String tool, List<String> options) throws Exception {
        List<String> argv = new ArrayList<>(List.of(tool));
        argv.addAll(options);
        argv.addAll(List.of("--", name));
        List<String> shown = new ArrayList<>(argv);
        int password = shown.indexOf("-p");
        if (password >= 0) shown.set(password + 1, HIDDEN);
        SystemTool.output(argv, SystemTool.quoted(shown));
    }

    /** Whether {@code wanted} (a group name or gid) is the group {@code gid}. */
    private static boolean sameGroup(String wanted, long gid) throws Exception {
        if (wanted.matches("[0-9]+")) return Long.parseLong(wanted) == gid;
        return AccountDatabase.group(wanted).map(g -> g.gid() == gid).orElse(false);
    }

    private static String groupName(long gid) throws Exception {
        return AccountDatabase.group(Long.toString(gid)).map(AccountDatabase.GroupEntry::name).orElse(Long.toString(gid));
    }

    private static Map<String, Object> values(AccountDatabase.UserEntry entry) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("uid", entry.uid());
        values.put("gid", entry.gid());
        values.put("home", entry.home());
        return values;
    }
}
