package io.muster.engine.compile;

import io.muster.engine.resource.Kinds;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a compilation sees besides the manifest: the host it is for (its name, which the patterns of a
 * {@code nodes:} section match, and its facts), the environment, external data ({@code --data}), which wins
 * over anything a manifest sets, how many manifests a chain of {@code apply} resources may nest
 * ({@code --max-apply-depth}, the manifest given counting as one), and the resource kinds a manifest may use.
 */
public final class CompileOptions {
    public static final int DEFAULT_MAX_APPLY_DEPTH = 10;
    /** The fact that names this host when no name is given: what an agent's {@code --host} defaults to. */
    public static final String HOST_FACT = "fqdn";

    private final Supplier<String> host;
    private final Map<String, Object> facts;
    private final Map<String, String> env;
    private final Map<String, Object> data;
    private final int maxApplyDepth;
    private final Kinds kinds;

    private CompileOptions(Supplier<String> host, Map<String, Object> facts, Map<String, String> env, Map<String, Object> data,
                           int maxApplyDepth, Kinds kinds) {
        if (maxApplyDepth < 1) throw new IllegalArgumentException("--max-apply-depth must be at least 1, got " + maxApplyDepth);
        this.host = host;
        // facts are gathered lazily: wrap, never copy; data may hold YAML nulls, which Map.copyOf refuses
        this.facts = Collections.unmodifiableMap(facts);
        this.env = Map.copyOf(env);
        this.data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
        this.maxApplyDepth = maxApplyDepth;
        this.kinds = kinds;
    }

    /** For a host of the fleet: its name and the facts its agent published. */
    public CompileOptions(String host, Map<String, Object> facts, Map<String, String> env, Map<String, Object> data, int maxApplyDepth,
                          Kinds kinds) {
        this(constant(host), facts, env, data, maxApplyDepth, kinds);
    }

    /**
     * For this host ({@code apply}, {@code run}, {@code plan}…): its name is its {@link #HOST_FACT} fact, read only when a
     * {@code nodes:} section needs it, since gathering it may wait for DNS.
     */
    public CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data, int maxApplyDepth, Kinds kinds) {
        this(() -> hostFact(facts), facts, env, data, maxApplyDepth, kinds);
    }

    public CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data, int maxApplyDepth) {
        this(facts, env, data, maxApplyDepth, Kinds.installed());
    }

    public CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data) {
        this(facts, env, data, DEFAULT_MAX_APPLY_DEPTH);
    }

    public CompileOptions withKinds(Kinds more) {
        return new CompileOptions(host, facts, env, data, maxApplyDepth, more);
    }

    /** The name of the host the manifest is compiled for. */
    public String host() {
        return host.get();
    }

    public Map<String, Object> facts() {
        return facts;
    }

    public Map<String, String> env() {
        return env;
    }

    public Map<String, Object> data() {
        return data;
    }

    public int maxApplyDepth() {
        return maxApplyDepth;
    }

    public Kinds kinds() {
        return kinds;
    }

    private static Supplier<String> constant(String host) {
        Objects.requireNonNull(host, "host");
        return () -> host;
    }

    private static String hostFact(Map<String, Object> facts) {
        Object name = facts.get(HOST_FACT);
        if (name == null) throw new IllegalStateException("no host name: the facts have no " + HOST_FACT);
        return name.toString();
    }
}
