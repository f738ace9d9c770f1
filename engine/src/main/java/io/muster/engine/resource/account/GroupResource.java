package io.muster.engine.resource.account;

import io.muster.engine.process.SystemTool;
import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A group as {@code getent group} has it. {@code gid} and {@code members} are compared only when set;
 * {@code members} is the exact list (set with {@code gpasswd -M}), and {@code system} only matters when the
 * group is created. Its {@code gid} is a value for others to {@code lookup}.
 *
 * @param gid null to let {@code groupadd} choose and leave it alone after
 * @param members null to leave them alone
 */
record GroupResource(String name, boolean present, Long gid, boolean system, List<String> members) implements Edgeable {

    @Override
    public Set<String> provides() {
        return Set.of("group:" + name);
    }

    @Override
    public List<List<String>> wants() {
        return List.of();
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        Optional<AccountDatabase.GroupEntry> current = AccountDatabase.group(name);
        if (!present) {
            if (current.isEmpty()) return Result.STABLE;
            if (apply) SystemTool.output(List.of("groupdel", "--", name));
            return Result.changed(List.of(Change.of("ensure", "present", "absent")));
        }
        if (current.isEmpty()) return create(apply);
        AccountDatabase.GroupEntry entry = current.get();
        List<Change> changes = new ArrayList<>();
        if (gid != null && gid != entry.gid()) {
            changes.add(Change.of("gid", entry.gid(), gid));
            if (apply) SystemTool.output(List.of("groupmod", "-g", gid.toString(), "--", name));
        }
        if (members != null && !Set.copyOf(members).equals(Set.copyOf(entry.members()))) {
            changes.add(Change.of("members", String.join(",", entry.members()), String.join(",", members)));
            if (apply) setMembers();
        }
        return new Result(changes, values(apply && gid != null ? gid : entry.gid()), null);
    }

    /** Under {@code muster run}: a change to group or gshadow (a {@code groupmod} by hand) is checked at once. */
    @Override
    public void watch(Watcher watcher) throws Exception {
        AccountDatabase.watch(watcher, List.of(Path.of("/etc/group"), Path.of("/etc/gshadow")));
    }

    private Result create(boolean apply) throws Exception {
        List<Change> changes = new ArrayList<>(List.of(Change.of("ensure", "absent", "present")));
        if (members != null && !members.isEmpty()) changes.add(Change.of("members", "", String.join(",", members)));
        if (!apply) return Result.changed(changes);
        List<String> argv = new ArrayList<>(List.of("groupadd"));
        if (gid != null) argv.addAll(List.of("-g", gid.toString()));
        if (system) argv.add("-r");
        argv.addAll(List.of("--", name));
        SystemTool.output(argv);
        if (members != null && !members.isEmpty()) setMembers();
        long made = AccountDatabase.group(name).orElseThrow(() -> new IllegalStateException("groupadd made no group " + name)).gid();
        return Result.changed(changes).withOutputs(values(made));
    }

    private void setMembers() throws Exception {
        SystemTool.output(List.of("gpasswd", "-M", String.join(",", members), name));
    }

    private static Map<String, Object> values(long gid) {
        return Map.of("gid", gid);
    }
}
