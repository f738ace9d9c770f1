package io.muster.engine.format.ccm.expr;

import java.time.Clock;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a CCM expression sees, as CCM's template environment has it: the variables {@code Data}, {@code Facts} and
 * {@code Environ}, the functions {@code lookup()} (a gjson path into {@code data}, {@code facts} and
 * {@code environ}), {@code file()}/{@code readFile()} and {@code template()} through {@link CcmFiles}, and
 * {@code now()} on a clock. Immutable: each {@code with…} gives a new environment.
 *
 * <p>A {@linkplain #restricted() restricted} environment is the one CCM resolves hiera data with: only
 * {@code lookup()} among CCM's functions, and a missing key without a default is {@code ""}, not an error.
 */
public final class CcmEnv {
    private final Map<String, Object> data;
    private final Map<String, Object> facts;
    private final Map<String, String> environ;
    private final CcmFiles files;
    private final Clock clock;
    private final boolean restricted;
    private final Map<String, Object> variables;
    private final Map<String, CcmFunction> functions;
    private final Map<String, Object> lookupRoot;

    private CcmEnv(Map<String, ?> data, Map<String, ?> facts, Map<String, String> environ, CcmFiles files, Clock clock,
                   boolean restricted, Map<String, Object> variables, Map<String, CcmFunction> functions) {
        this.data = copy(data);
        this.facts = copy(facts);
        // a view, not a copy: a copy reads every variable, and the compiled-graph cache would depend on them all
        this.environ = environ == null ? null : Collections.unmodifiableMap(environ);
        this.files = files;
        this.clock = clock;
        this.restricted = restricted;
        this.variables = variables;
        this.functions = functions;
        Map<String, Object> root = new LinkedHashMap<>(); // CCM marshals its environment to JSON with these three keys
        root.put("facts", this.facts);
        root.put("data", this.data);
        root.put("environ", this.environ);
        this.lookupRoot = Collections.unmodifiableMap(root);
    }

    /** A read-only copy; not Map.copyOf, which refuses the null values YAML data has. */
    private static Map<String, Object> copy(Map<String, ?> map) {
        return map == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /** {@code data}, {@code facts} and {@code environ} (any may be null, read as CCM reads a nil map); no files, the system clock. */
    public static CcmEnv of(Map<String, ?> data, Map<String, ?> facts, Map<String, String> environ) {
        return new CcmEnv(data, facts, environ, CcmFiles.NONE, Clock.systemDefaultZone(), false, Map.of(), Map.of());
    }

    public CcmEnv withFiles(CcmFiles reader) {
        return new CcmEnv(data, facts, environ, reader, clock, restricted, variables, functions);
    }

    public CcmEnv withClock(Clock other) {
        return new CcmEnv(data, facts, environ, files, other, restricted, variables, functions);
    }

    /** CCM's hiera environment: {@code lookup()} only, and a missing key reads as {@code ""}. */
    public CcmEnv restricted() {
        return new CcmEnv(data, facts, environ, files, clock, true, variables, functions);
    }

    /** One more variable, such as {@code value} in a {@code @validate} expression. */
    public CcmEnv withVariable(String name, Object value) {
        Map<String, Object> more = new HashMap<>(variables);
        more.put(name, value);
        return new CcmEnv(data, facts, environ, files, clock, restricted, Collections.unmodifiableMap(more), functions);
    }

    /** One more function, called by {@code name(…)}; a builtin of the same name is hidden by it. */
    public CcmEnv withFunction(String name, CcmFunction function) {
        Map<String, CcmFunction> more = new HashMap<>(functions);
        more.put(name, function);
        return new CcmEnv(data, facts, environ, files, clock, restricted, variables, Map.copyOf(more));
    }

    Map<String, Object> data() {
        return data;
    }

    Map<String, Object> facts() {
        return facts;
    }

    Map<String, String> environ() {
        return environ;
    }

    CcmFiles files() {
        return files;
    }

    Clock clock() {
        return clock;
    }

    boolean isRestricted() {
        return restricted;
    }

    /** A variable by name: CCM's three, then the caller's; {@code found[0]} says whether there is one. */
    Object variable(String name, boolean[] found) {
        found[0] = true;
        switch (name) {
            case "Data" -> { return data; }
            case "Facts" -> { return facts; }
            case "Environ" -> { return environ; }
            case "$env" -> { return all(); }
            default -> { }
        }
        found[0] = variables.containsKey(name);
        return variables.get(name);
    }

    /** expr-lang's {@code $env}: every variable by name. */
    private Map<String, Object> all() {
        Map<String, Object> all = new LinkedHashMap<>(variables);
        all.put("Data", data);
        all.put("Facts", facts);
        all.put("Environ", environ);
        return Collections.unmodifiableMap(all);
    }

    CcmFunction function(String name) {
        return functions.get(name);
    }

    /** What {@code lookup()} paths start from. */
    Map<String, Object> lookupRoot() {
        return lookupRoot;
    }
}
