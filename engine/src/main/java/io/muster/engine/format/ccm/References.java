package io.muster.engine.format.ccm;

import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CCM's {@code require} and {@code subscribe} as its manager reads them while the resources run in order: a
 * reference {@code type#name} means the last resource of that type run before, by name or {@code alias}. What CCM
 * does with a reference to nothing run yet (a resource declared later, or never) is decided here, as the run would
 * find it: a {@code require} stops the whole run at the resource ({@code no events found for type#name}; it and
 * the rest never run), a {@code subscribe} fails that resource alone (CCM's exec and service ask whether it
 * changed); a resource its {@code control} skips asks neither. The same type and name written twice run twice, as
 * CCM runs its list: the later one gets a name of its own ({@code name (2)}), its identity unchanged.
 */
final class References {
    private static final Map<String, String> IDENTITY = Map.of("file", "path", "exec", "command", "package", "name",
            "service", "name", "archive", "path", "scaffold", "path");

    private References() {}

    /** The resources as they run: references resolved to muster's ids, a stopping one last, duplicates renamed. */
    static List<Translated> resolve(List<Translated> written) {
        Map<String, String> ran = new HashMap<>(); // type#name and type#alias -> the id of the last one
        Set<String> ids = new HashSet<>();
        List<Translated> out = new ArrayList<>();
        for (Translated t : written) {
            Translated unique = unique(t, ids);
            boolean asks = !skippedByControl(t);
            List<String> require = resolved(unique, "require", ran);
            String missing = firstMissing(unique, "require", ran);
            if (asks && missing != null) {
                out.add(failing(CcmNames.stop(unique.id()), unique, missing));
                return out; // CCM's run stops here: nothing after it runs
            }
            missing = firstMissing(unique, "subscribe", ran);
            if (asks && missing != null) {
                out.add(failing(unique.id(), unique, missing));
            } else {
                set(unique, "require", require);
                set(unique, "subscribe", resolved(unique, "subscribe", ran));
                out.add(unique);
            }
            ids.add(unique.id());
            ran.put(t.kind() + "#" + t.name(), unique.id());
            String alias = text(t.properties().get("alias"));
            if (!alias.isEmpty()) ran.put(t.kind() + "#" + alias, unique.id());
        }
        return out;
    }

    /** {@code t}, or, when its id was taken by one written before, the same resource under a name of its own. */
    private static Translated unique(Translated t, Set<String> ids) {
        if (!ids.contains(t.id()) || !IDENTITY.containsKey(t.kind())) return t;
        int n = 2;
        while (ids.contains(t.kind() + "#" + t.name() + " (" + n + ")")) n++;
        Translated renamed = new Translated(t.kind(), t.name() + " (" + n + ")", t.mark(), new LinkedHashMap<>(t.properties()));
        renamed.properties().putIfAbsent(IDENTITY.get(t.kind()), Nodes.scalar(t.name(), t.mark()));
        return renamed;
    }

    private static boolean skippedByControl(Translated t) {
        if (!(t.properties().get("control") instanceof YNode.Dict control)) return false;
        return Boolean.FALSE.equals(plain(control.get("if"))) || Boolean.TRUE.equals(plain(control.get("unless")));
    }

    private static String firstMissing(Translated t, String property, Map<String, String> ran) {
        for (String reference : references(t, property)) {
            if (!ran.containsKey(reference)) return reference;
        }
        return null;
    }

    private static List<String> resolved(Translated t, String property, Map<String, String> ran) {
        return references(t, property).stream().filter(ran::containsKey).map(ran::get).distinct().toList();
    }

    private static void set(Translated t, String property, List<String> ids) {
        YNode written = t.properties().get(property);
        if (written == null) return;
        if (ids.isEmpty()) t.properties().remove(property);
        else t.put(property, ids, written.mark());
    }

    /** What CCM records for the resource {@code t}: a failure saying which reference had no event. */
    private static Translated failing(String name, Translated t, String missing) {
        Translated msg = new Translated("msg", name, t.mark(), new LinkedHashMap<>());
        return msg.put("message", "no events found for " + missing, t.mark()).put("fail", true, t.mark());
    }

    private static List<String> references(Translated t, String property) {
        if (!(plain(t.properties().get(property)) instanceof List<?> list)) return List.of();
        return list.stream().map(String::valueOf).toList();
    }

    private static String text(YNode node) {
        Object value = plain(node);
        return value == null ? "" : String.valueOf(value);
    }

    private static Object plain(YNode node) {
        return node == null ? null : node.plain();
    }
}
