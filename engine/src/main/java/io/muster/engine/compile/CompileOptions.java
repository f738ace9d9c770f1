package io.muster.engine.compile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a compilation sees besides the manifest: the host's facts, the environment, and external data
 * ({@code --data}), which wins over anything a manifest sets.
 */
public record CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data) {

    public CompileOptions {
        // facts are gathered lazily: wrap, never copy; data may hold YAML nulls, which Map.copyOf refuses
        facts = Collections.unmodifiableMap(facts);
        env = Map.copyOf(env);
        data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }
}
