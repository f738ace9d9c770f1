package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * mgmt's {@code exec}: {@code cmd} runs through {@code shell} (an interpreter's path, run as {@code SHELL -c CMD})
 * or, with no shell ({@code ''} or unset), split at white space into a program and its arguments ({@code args}
 * replace the arguments); {@code ifcmd} must succeed and {@code nifcmd} fail for it to run, each through its own
 * shell, in {@code cwd} (an {@code ifcwd}, {@code nifcwd} or {@code watchcwd} of its own is refused);
 * {@code creates}, {@code cwd}, {@code env} (the command's whole environment: mgmt gives it nothing of its own, not
 * even PATH), {@code user} and {@code group} (a user alone runs with their primary group), {@code watchcmd} and
 * {@code watchfiles}. mgmt runs a command without a time limit; the {@code timeout} (seconds) of older mgmt graphs
 * limits it when above 0.
 */
final class ExecTranslation implements KindTranslation {

    @Override
    public String nativeKind() {
        return "exec";
    }

    @Override
    public Map<String, YNode> properties(MgmtResource r) {
        r.refuse("ifequals", "comparing the output of ifcmd");
        r.refuse("ifequals_stdout", "comparing the output of ifcmd");
        r.refuse("donecmd", "a command run after cmd succeeded; add an exec after this one");
        r.refuse("mtimes", "running when files' modification times change; use watchfiles");
        r.refuse("sig", "a signal other than SIGKILL to stop the command");
        for (String key : List.of("ifcwd", "nifcwd", "watchcwd")) {
            r.string(key).filter(dir -> !r.string("cwd").equals(Optional.of(dir)))
                    .ifPresent(dir -> r.problem(key, "not supported by muster: a guard or watch command runs in the exec's cwd ("
                            + r.string("cwd").orElse("unset") + "), not in a directory of its own"));
        }
        Map<String, YNode> out = new LinkedHashMap<>();
        Optional<String> cmd = r.string("cmd");
        if (cmd.isEmpty()) {
            r.problem("cmd", "the command is missing (set cmd)");
            return out;
        }
        List<String> args = r.strings("args");
        out.put("command", Node.texts(words(cmd.get(), r.rawString("shell"), args), r.markOf("cmd")));
        out.put("timeout", timeout(r));
        guard(r, "ifcmd", "ifshell").ifPresent(g -> out.put("onlyif", g));
        guard(r, "nifcmd", "nifshell").ifPresent(g -> out.put("unless", g));
        guard(r, "watchcmd", "watchshell").ifPresent(g -> out.put("watchcmd", g));
        List<String> watchfiles = r.strings("watchfiles");
        if (!watchfiles.isEmpty()) out.put("watchfiles", Node.texts(watchfiles, r.markOf("watchfiles")));
        for (String key : List.of("cwd", "creates", "user", "group")) r.string(key).ifPresent(v -> out.put(key, Node.text(v, r.markOf(key))));
        out.put("inherit_environment", Node.value(false, r.markOf("cmd"))); // mgmt's exec gives a command env alone, even when empty
        Map<String, String> env = r.stringMap("env");
        if (!env.isEmpty()) {
            Map<String, YNode> variables = new LinkedHashMap<>();
            env.forEach((k, v) -> variables.put(k, Node.text(v, r.markOf("env"))));
            out.put("environment", Node.dict(variables, r.markOf("env")));
        }
        return out;
    }

    private static YNode timeout(MgmtResource r) {
        Optional<YNode> written = r.node("timeout");
        if (written.isPresent() && written.get() instanceof YNode.Scalar s && s.value() instanceof Number n && n.doubleValue() > 0) return s;
        return new YNode.Scalar(0, r.markOf("cmd"));
    }

    /** A guard or watch command, run through its own shell as mgmt runs it. */
    private static Optional<YNode> guard(MgmtResource r, String key, String shellKey) {
        return r.string(key).map(c -> Node.texts(words(c, r.rawString(shellKey), List.of()), r.markOf(key)));
    }

    /** The program and its arguments, as mgmt's exec builds them. */
    static List<String> words(String command, Optional<String> shell, List<String> args) {
        if (shell.isPresent() && !shell.get().isEmpty()) return List.of(shell.get(), "-c", command);
        List<String> split = new ArrayList<>(Arrays.asList(command.strip().split("\\s+")));
        if (!args.isEmpty()) {
            split.subList(1, split.size()).clear();
            split.addAll(args);
        }
        return split;
    }
}
