package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * mgmt's {@code user} ({@code uid}, {@code gid} or {@code group} for the primary group, {@code groups},
 * {@code homedir}, {@code shell}) and {@code group} ({@code gid}); {@code state} {@code exists} or {@code absent}.
 */
record AccountTranslation(String nativeKind) implements KindTranslation {

    @Override
    public Map<String, YNode> properties(MgmtResource r) {
        Map<String, YNode> out = new LinkedHashMap<>();
        out.put("name", Node.text(r.name(), r.mark()));
        Optional<String> state = r.string("state");
        if (state.isPresent() && !state.get().equals("exists") && !state.get().equals("absent")) {
            r.problem("state", "expected exists or absent, got '" + state.get() + "'");
        }
        state.ifPresent(s -> out.put("ensure", Node.text(s.equals("absent") ? "absent" : "present", r.markOf("state"))));
        if (state.equals(Optional.of("absent"))) return out;
        r.string("uid").ifPresent(v -> out.put("uid", Node.text(v, r.markOf("uid"))));
        r.string("gid").or(() -> r.string("group")).ifPresent(v -> out.put("gid", Node.text(v, r.markOf(r.string("gid").isPresent() ? "gid" : "group"))));
        if (nativeKind.equals("user")) {
            List<String> groups = r.strings("groups");
            if (r.node("groups").isPresent()) out.put("groups", Node.texts(groups, r.markOf("groups")));
            r.string("homedir").ifPresent(v -> out.put("home", Node.text(v, r.markOf("homedir"))));
            r.string("shell").ifPresent(v -> out.put("shell", Node.text(v, r.markOf("shell"))));
        }
        return out;
    }
}
