package io.muster.engine.resource.exec;

import io.muster.engine.process.ProcessRunner;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code exec}: runs a command when its guards say so; its stdout, stderr and exit code are values. With
 * {@code query: true} the command only reads: it runs on every check, in noop too, and never counts as a change.
 */
public final class ExecKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("command", Set.of("stdout", "stderr", "exit_code"),
            Property.required("command", Type.ANY).checkedBy(ExecKind::commandProblem),
            Property.optional("shell", Type.BOOLEAN),
            Property.optional("cwd", Type.STRING),
            Property.optional("environment", Type.ANY).checkedBy(ExecKind::environmentProblem),
            Property.optional("inherit_environment", Type.BOOLEAN),
            Property.optional("path", Type.STRING_LIST),
            Seconds.property("timeout"),
            Property.optional("kill_on_timeout", Type.BOOLEAN),
            Property.optional("returns", Type.INTEGER_LIST),
            Property.optional("creates", Type.STRING),
            Property.optional("onlyif", Type.ANY).checkedBy(ExecKind::commandProblem),
            Property.optional("unless", Type.ANY).checkedBy(ExecKind::commandProblem),
            Property.optional("refreshonly", Type.BOOLEAN),
            Property.optional("guards_on_refresh", Type.BOOLEAN),
            Property.optional("logoutput", Type.BOOLEAN),
            Property.optional("query", Type.BOOLEAN),
            Property.optional("user", Type.STRING),
            Property.optional("group", Type.STRING),
            Property.optional("watchcmd", Type.ANY).checkedBy(ExecKind::commandProblem),
            Property.optional("watchfiles", Type.STRING_LIST),
            Property.optional("sensitive", Type.BOOLEAN));

    private static final long DEFAULT_TIMEOUT_SECONDS = 300;

    @Override
    public boolean runsCommands() {
        return true;
    }

    @Override
    public String name() {
        return "exec";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams p) throws InvalidResourceException {
        boolean shell = p.bool("shell", false);
        boolean sensitive = p.bool("sensitive", false);
        ProcessRunner runner = new ProcessRunner(
                p.optionalAbsolutePath("cwd").orElse(p.directory()), // relative paths mean the manifest's directory
                environment(p.optionalAny("environment").orElse(Map.of())),
                searchPath(p.strings("path", List.of())),
                p.optionalString("user").orElse(null),
                p.optionalString("group").orElse(null),
                Seconds.duration(p.number("timeout", DEFAULT_TIMEOUT_SECONDS)),
                p.bool("kill_on_timeout", true),
                ProcessRunner.DEFAULT_OUTPUT_LIMIT,
                p.bool("inherit_environment", true));
        return new ExecResource(
                // unset only while a late command is unrendered: the compiler's stand-in still has cwd for automatic edges
                command(p, "command", shell, sensitive),
                command(p, "onlyif", shell, sensitive),
                command(p, "unless", shell, sensitive),
                p.optionalAbsolutePath("creates").orElse(null),
                p.bool("refreshonly", false),
                p.bool("query", false),
                Set.copyOf(p.integers("returns", List.of(0L))),
                runner,
                command(p, "watchcmd", shell, sensitive),
                absolutes("watchfiles", p.strings("watchfiles", List.of())),
                sensitive,
                p.bool("guards_on_refresh", true),
                p.bool("logoutput", false));
    }

    private static Command command(TypedParams p, String property, boolean shell, boolean sensitive)
            throws InvalidResourceException {
        Optional<Object> raw = p.optionalAny(property);
        if (raw.isEmpty()) return null;
        try {
            return Command.of(raw.get(), shell, sensitive);
        } catch (IllegalArgumentException e) {
            throw new InvalidResourceException(property, e.getMessage());
        }
    }

    private static List<Path> absolutes(String property, List<String> values) throws InvalidResourceException {
        List<Path> paths = new ArrayList<>();
        for (String s : values) {
            Path path = Path.of(s);
            if (!path.isAbsolute()) throw new InvalidResourceException(property, "expected absolute paths, got '" + s + "'");
            paths.add(path.normalize());
        }
        return paths;
    }

    /** {@code path: /usr/bin:/bin} and {@code path: [/usr/bin, /bin]} mean the same. */
    private static List<String> searchPath(List<String> entries) {
        return entries.stream().flatMap(e -> List.of(e.split(":")).stream()).filter(s -> !s.isEmpty()).toList();
    }

    /** A map, or Puppet's list of {@code NAME=value} strings. */
    private static Map<String, String> environment(Object raw) {
        Map<String, String> env = new LinkedHashMap<>();
        if (raw instanceof Map<?, ?> map) {
            map.forEach((k, v) -> env.put(String.valueOf(k), String.valueOf(v)));
        } else if (raw instanceof List<?> list) {
            for (Object item : list) {
                String s = String.valueOf(item);
                int eq = s.indexOf('=');
                env.put(s.substring(0, eq), s.substring(eq + 1));
            }
        }
        return env;
    }

    private static String commandProblem(Object raw) {
        if (raw instanceof String s) return s.isBlank() ? "expected a command, got an empty string" : null;
        if (raw instanceof List<?> list) {
            if (list.isEmpty()) return "expected a command, got an empty list";
            for (Object item : list) {
                if (item instanceof Map<?, ?> || item instanceof List<?> || item == null) {
                    return "expected a list of words (strings), got " + io.muster.engine.manifest.YNode.describeValue(item) + " in it";
                }
            }
            return null;
        }
        return "expected a command string or a list of words, got " + io.muster.engine.manifest.YNode.describeValue(raw);
    }

    private static String environmentProblem(Object raw) {
        if (raw instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> || e.getValue() instanceof List<?>) return "expected scalar values in the environment map";
                String problem = variableProblem(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
                if (problem != null) return problem;
            }
            return null;
        }
        if (raw instanceof List<?> list) {
            for (Object item : list) {
                if (!(item instanceof String s) || s.indexOf('=') <= 0) return "expected NAME=value entries, got '" + item + "'";
                String problem = variableProblem(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
                if (problem != null) return problem;
            }
            return null;
        }
        return "expected a map of NAME: value, or a list of NAME=value";
    }

    /** What the kernel's environment block cannot hold: an empty name, a name with '=', a NUL anywhere. */
    private static String variableProblem(String name, String value) {
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
            return "invalid environment variable name '" + name.replace("\0", "\\0") + "': expected a non-empty name without '=' or NUL";
        }
        if (value.indexOf('\0') >= 0) return "the value of environment variable " + name + " contains a NUL character";
        return null;
    }
}
