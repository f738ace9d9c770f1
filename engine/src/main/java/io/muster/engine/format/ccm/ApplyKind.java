package io.muster.engine.format.ccm;

import java.util.Map;
import java.util.Set;

/**
 * CCM's {@code apply}: muster's {@code apply}, running a child manifest (a file path, not a URL) inside this
 * one. {@code noop}, {@code health_check_only} and {@code allow_apply} (true by default) carry over. Its
 * {@code data} is deep-merged over the child's own; without {@code data}, the parent's data is, as in CCM.
 */
final class ApplyKind implements CcmKind {
    private final Map<String, Object> parentData;

    ApplyKind(Map<String, Object> parentData) {
        this.parentData = parentData;
    }

    @Override
    public String name() {
        return "apply";
    }

    @Override
    public Set<String> properties() {
        return Set.of("noop", "health_check_only", "allow_apply", "data");
    }

    @Override
    public Translated translate(CcmResource r) {
        Translated out = Translated.of("apply", r);
        CommonProperties.provider(r, Set.of("ccm"));
        Ensure.orDefault(r, "present", Set.of("present"));
        if (r.name().matches("[a-zA-Z][a-zA-Z0-9+.-]*://.*")) r.problem("name must be a file path, not a URL");
        for (String flag : new String[] {"noop", "health_check_only"}) {
            if (r.bool(flag)) out.put(flag, true, r.markOf(flag));
        }
        if (r.has("allow_apply")) out.put("allow_apply", r.bool("allow_apply"), r.markOf("allow_apply"));
        Object data = r.has("data") ? r.value("data") : parentData;
        if (!(data instanceof Map<?, ?>)) r.problem(r.markOf("data"), "data: expected a map");
        else if (!((Map<?, ?>) data).isEmpty()) out.put("data", data, r.markOf("data"));
        return out;
    }
}
