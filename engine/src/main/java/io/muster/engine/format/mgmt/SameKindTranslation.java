package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An mgmt kind whose muster kind has mgmt's name and properties ({@code noop}, {@code kv}, {@code timer},
 * {@code hostname}): the properties it knows are passed as written, others ignored as mgmt ignores them.
 */
record SameKindTranslation(String nativeKind, List<String> keys) implements KindTranslation {

    @Override
    public Map<String, YNode> properties(MgmtResource r) {
        Map<String, YNode> out = new LinkedHashMap<>();
        for (String key : keys) {
            r.node(key).ifPresent(v -> out.put(key, v instanceof YNode.Scalar s ? Node.value(s.value(), s.mark()) : v));
        }
        return out;
    }
}
