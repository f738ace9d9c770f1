package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * mgmt's {@code msg} ({@code body}, {@code priority}) and {@code print} ({@code msg}), both muster's {@code msg}:
 * the message is logged and reported. {@code priority} {@code Emerg}, {@code Alert}, {@code Crit} and {@code Err}
 * log an error, {@code Warning} a warning, the others information.
 */
record MessageTranslation(String textKey) implements KindTranslation {

    @Override
    public String nativeKind() {
        return "msg";
    }

    @Override
    public Map<String, YNode> properties(MgmtResource r) {
        Map<String, YNode> out = new LinkedHashMap<>();
        out.put("message", Node.text(r.string(textKey).orElse(r.name()), r.markOf(textKey)));
        String level = switch (r.string("priority").orElse("Info")) {
            case "Emerg", "Alert", "Crit", "Err" -> "error";
            case "Warning" -> "warn";
            default -> "info";
        };
        out.put("level", Node.text(level, r.markOf("priority")));
        return out;
    }
}
