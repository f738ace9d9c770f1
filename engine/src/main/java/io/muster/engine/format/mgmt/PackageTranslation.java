package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** mgmt's {@code pkg}: {@code state} {@code installed} (the default), {@code uninstalled}, {@code newest} or a version. */
final class PackageTranslation implements KindTranslation {

    @Override
    public String nativeKind() {
        return "package";
    }

    @Override
    public Map<String, YNode> properties(MgmtResource r) {
        String state = r.string("state").orElse("installed");
        if (state.equals("latest")) r.problem("state", "'latest' is not an mgmt state; did you mean 'newest'?");
        String ensure = switch (state) {
            case "installed" -> "present";
            case "uninstalled" -> "absent";
            case "newest" -> "latest";
            default -> state;
        };
        Map<String, YNode> out = new LinkedHashMap<>();
        out.put("name", Node.text(r.name(), r.mark()));
        out.put("ensure", Node.text(ensure, r.markOf("state")));
        return out;
    }
}
