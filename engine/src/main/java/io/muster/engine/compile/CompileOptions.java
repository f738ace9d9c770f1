package io.muster.engine.compile;

import io.muster.engine.resource.Kinds;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a compilation sees besides the manifest: the host's facts, the environment, external data
 * ({@code --data}), which wins over anything a manifest sets, and how many manifests a chain of
 * {@code apply} resources may nest ({@code --max-apply-depth}, the manifest given counting as one), and
 * the resource kinds a manifest may use.
 */
public record CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data, int maxApplyDepth,
                             Kinds kinds) {
    public static final int DEFAULT_MAX_APPLY_DEPTH = 10;

    public CompileOptions {
        // facts are gathered lazily: wrap, never copy; data may hold YAML nulls, which Map.copyOf refuses
        facts = Collections.unmodifiableMap(facts);
        env = Map.copyOf(env);
        data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
        if (maxApplyDepth < 1) throw new IllegalArgumentException("--max-apply-depth must be at least 1, got " + maxApplyDepth);
    }

    public CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data, int maxApplyDepth) {
        this(facts, env, data, maxApplyDepth, Kinds.installed());
    }

    public CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data) {
        this(facts, env, data, DEFAULT_MAX_APPLY_DEPTH);
    }

    public CompileOptions withKinds(Kinds more) {
        return new CompileOptions(facts, env, data, maxApplyDepth, more);
    }
}
