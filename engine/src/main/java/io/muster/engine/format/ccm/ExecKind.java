package io.muster.engine.format.ccm;

import io.muster.engine.format.ccm.expr.CcmTemplate;
import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * CCM's {@code exec}: muster's {@code exec}. The command is {@code command}, or the name when unset; the
 * {@code posix} provider (the default) runs its words directly, {@code shell} through {@code /bin/sh -c}. Command,
 * cwd, environment, creates and guards are rendered just before it runs (CCM defers them). Without {@code cwd}
 * it runs in {@code /}, as CCM's command runner does. {@code timeout} is a duration ({@code 30s}, {@code 1m30s}),
 * none without one, that never stops the command (native {@code kill_on_timeout: false}); {@code path} absolute directories,
 * colon-separated, the file CCM's runner executes (see {@link #withProgram}); each
 * {@code environment} entry {@code KEY=value}, both parts non-empty, the name a shell identifier unless the entry
 * is a template (CCM's schema checks a rendered placeholder then). A subscribe refresh runs the command even when
 * its guards say the work is done, as in CCM.
 */
final class ExecKind implements CcmKind {
    /** Where CCM's command runner runs a command, its guards too, when no {@code cwd} is given. */
    private static final String CCM_DIRECTORY = "/";
    private static final Pattern ENVIRONMENT_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    @Override
    public String name() {
        return "exec";
    }

    @Override
    public Set<String> properties() {
        return Set.of("command", "cwd", "environment", "path", "returns", "timeout", "creates", "onlyif", "unless", "refreshonly",
                "subscribe", "logoutput");
    }

    @Override
    public Translated translate(CcmResource r) {
        Translated out = Translated.of("exec", r);
        CommonProperties.provider(r, Set.of("posix", "shell"));
        Ensure.orDefault(r, "present", Set.of("present"));
        if (r.name().isBlank()) r.problem("invalid command");
        YNode command = r.deferred("command").filter(c -> !"".equals(c.plain())).orElse(Nodes.scalar(r.name(), r.mark()));
        boolean shell = "shell".equals(r.string("provider"));
        long deadline = deadline(r);
        String program = path(r);
        out.putNode("command", run(r, "command", command, shell, program));
        if (shell && program == null) out.put("shell", true, r.markOf("provider"));
        for (String deferred : List.of("cwd", "creates")) r.deferred(deferred).ifPresent(v -> out.putNode(deferred, v));
        for (String guard : List.of("onlyif", "unless")) r.deferred(guard).ifPresent(v -> out.putNode(guard, run(r, guard, v, shell, program)));
        if (!r.has("cwd")) out.put("cwd", CCM_DIRECTORY, r.mark());
        environment(r, out);
        out.put("timeout", deadline / 1000.0, r.markOf("timeout"));
        if (deadline > 0) out.put("kill_on_timeout", false, r.markOf("timeout")); // CCM's runner never stops the command
        r.entry("returns").ifPresent(e -> out.putNode("returns", e.value()));
        if (r.bool("refreshonly")) out.put("refreshonly", true, r.markOf("refreshonly"));
        Subscriptions.translate(r, out);
        out.put("guards_on_refresh", false, r.mark());
        if (r.bool("logoutput")) out.put("logoutput", true, r.markOf("logoutput"));
        return out;
    }

    /** The {@code timeout} in whole milliseconds (rounded up), 0 when there is none. */
    private static long deadline(CcmResource r) {
        if (!r.has("timeout")) return 0;
        String timeout = r.string("timeout");
        if (r.unrendered("timeout")) return 0;
        try {
            return (long) Math.ceil(GoDuration.seconds(timeout) * 1000);
        } catch (IllegalArgumentException e) {
            r.problem(r.markOf("timeout"), "timeout: " + e.getMessage());
            return 0;
        }
    }

    /**
     * A command or guard as muster runs it: its words (posix) or shell string, the program replaced by
     * {@code program} (CCM's {@code path}) when set.
     */
    private static YNode run(CcmResource r, String property, YNode command, boolean shell, String program) {
        YNode run = shell ? command : words(r, property, command);
        return program == null ? run : withProgram(run, program, shell);
    }

    /**
     * CCM's runner sets {@code path} as the file it executes (Go's {@code Cmd.Path}), not as a search path as its
     * docs say: the words after the first are its arguments (a shell command's {@code -c} and text), and a
     * colon-separated list or a directory cannot be run, so the exec fails as it does under CCM.
     */
    private static YNode withProgram(YNode command, String program, boolean shell) {
        YNode file = Nodes.scalar(program, command.mark());
        return switch (command) {
            case YNode.Seq seq -> {
                List<YNode> words = new ArrayList<>(seq.items());
                words.set(0, file);
                yield Nodes.seq(words, command.mark());
            }
            case YNode.Scalar scalar when shell -> Nodes.seq(List.of(file, Nodes.scalar("-c", command.mark()), scalar), command.mark());
            default -> Nodes.scalar("'" + program.replace("'", "'\\''") + "' " + command.plain(), command.mark());
        };
    }

    /**
     * The posix provider's command or guard as its words, split now as CCM splits it, so that shell syntax in it
     * reaches the program as written (muster refuses a string command holding shell syntax without a shell). One
     * rendered at run time stays a string.
     */
    private static YNode words(CcmResource r, String property, YNode command) {
        if (!(command instanceof YNode.Scalar scalar) || !(scalar.value() instanceof String text)
                || CcmTemplate.containsExpression(text)) {
            return command;
        }
        try {
            List<String> words = ShellWords.split(text);
            if (words.isEmpty()) return command;
            return Nodes.seq(words.stream().<YNode>map(w -> Nodes.scalar(w, scalar.mark())).toList(), scalar.mark());
        } catch (IllegalArgumentException e) {
            r.problem(scalar.mark(), property + ": " + e.getMessage());
            return command;
        }
    }

    /**
     * CCM's command runner gives a command this environment and nothing of its own: a fixed PATH, the C locale, then
     * the resource's {@code environment} entries (a later one of a name wins, as in Go's os/exec).
     */
    private static final List<String> RUNNER_ENVIRONMENT = List.of("PATH=/usr/bin:/bin:/usr/sbin:/sbin:/usr/local/bin:/usr/local/sbin",
            "LANG=C", "LC_ALL=C");

    private static void environment(CcmResource r, Translated out) {
        List<YNode> entries = new ArrayList<>();
        for (String entry : RUNNER_ENVIRONMENT) entries.add(Nodes.scalar(entry, r.mark()));
        out.put("inherit_environment", false, r.mark());
        out.putNode("environment", Nodes.seq(entries, r.mark()));
        r.entry("environment").ifPresent(e -> {
            if (!(e.value() instanceof YNode.Seq seq)) {
                r.problem(e.value().mark(), "environment: expected a list of KEY=value strings, got " + e.value().describe());
                return;
            }
            for (YNode item : seq.items()) {
                String entry = String.valueOf(item.plain()); // CCM checks it before rendering it
                int eq = entry.indexOf('=');
                if (eq < 0) r.problem(item.mark(), "invalid environment variable \"" + entry + "\": missing '='");
                else if (eq == 0) r.problem(item.mark(), "invalid environment variable \"" + entry + "\": empty key");
                else if (eq == entry.length() - 1) r.problem(item.mark(), "invalid environment variable \"" + entry + "\": empty value");
                else if (!CcmTemplate.containsExpression(entry) && !ENVIRONMENT_NAME.matcher(entry.substring(0, eq)).matches()) {
                    r.problem(item.mark(), "invalid environment variable \"" + entry + "\": the name must match " + ENVIRONMENT_NAME.pattern());
                }
            }
            entries.addAll(seq.items());
            out.putNode("environment", Nodes.seq(entries, seq.mark()));
        });
    }

    /** {@code path}, checked as CCM's model checks it (absolute directories, colon-separated); null when unset. */
    private static String path(CcmResource r) {
        if (!r.has("path") || r.string("path").isEmpty()) return null;
        for (String dir : r.string("path").split(":", -1)) {
            if (dir.isEmpty()) r.problem(r.markOf("path"), "invalid path: empty directory in path");
            else if (!dir.startsWith("/")) r.problem(r.markOf("path"), "invalid path: \"" + dir + "\" is not an absolute path");
        }
        return r.string("path");
    }
}
