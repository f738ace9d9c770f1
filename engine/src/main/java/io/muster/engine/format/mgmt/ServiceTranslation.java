package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** mgmt's {@code svc}: {@code state} {@code running}/{@code stopped}, {@code startup} {@code enabled}/{@code disabled}; a refresh restarts it. */
final class ServiceTranslation implements KindTranslation {

    @Override
    public String nativeKind() {
        return "service";
    }

    @Override
    public Map<String, YNode> properties(MgmtResource r) {
        if (r.bool("session")) r.problem("session", "not supported by muster: services of a user's session; muster manages system services");
        Map<String, YNode> out = new LinkedHashMap<>();
        out.put("name", Node.text(r.name(), r.mark()));
        Optional<String> state = r.string("state");
        if (state.isPresent() && !state.get().equals("running") && !state.get().equals("stopped")) {
            r.problem("state", "expected running or stopped, got '" + state.get() + "'");
        } else {
            state.ifPresent(s -> out.put("ensure", Node.text(s, r.markOf("state"))));
        }
        Optional<String> startup = r.string("startup");
        if (startup.isPresent() && !startup.get().equals("enabled") && !startup.get().equals("disabled")) {
            r.problem("startup", "expected enabled or disabled, got '" + startup.get() + "'");
        } else {
            startup.ifPresent(s -> out.put("enable", Node.text(String.valueOf(s.equals("enabled")), r.markOf("startup"))));
        }
        return out;
    }
}
