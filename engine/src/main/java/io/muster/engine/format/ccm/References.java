package io.muster.engine.format.ccm;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
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
 * changed); a resource its {@code control} skips asks neither. A {@code subscribe} of a resource run before is a
 * {@link EdgeReason#REFRESH} edge: a change refreshes the subscriber, a failure does not skip it (CCM asks only
 * whether the last event changed something). The same type and name written twice run twice, as CCM runs its list:
 * the later one gets a name of its own ({@code name (2)}), its identity unchanged.
 */
final class References {
    private static final Map<String, String> IDENTITY = Map.of("file", "path", "exec", "command", "package", "name",
            "service", "name", "archive", "path", "scaffold", "path");

    private final boolean included;
    private final Set<String> written = new HashSet<>(); // every type#name and type#alias of the manifest
    private final Map<String, String> ran = new HashMap<>(); // type#name and type#alias -> the id of the last one run
    private final Set<String> ids = new HashSet<>();
    private final List<Edge> refreshes = new ArrayList<>();
    private boolean applied; // an apply ran: its manifest's resources are named in the graph, not here

    private References(List<Translated> resources, boolean included) {
        this.included = included;
        for (Translated t : resources) written.addAll(names(t));
    }

    /**
     * The resources as they run: references resolved to muster's ids, a stopping one last, duplicates renamed. A
     * reference to no resource of this manifest, in one an {@code apply} includes or after an {@code apply}, is left
     * for the graph to resolve (CCM's session spans the manifests an apply runs). The run of a manifest an
     * {@code apply} includes stops alone (its {@code apply} fails), not the whole run: its stop is a plain failure.
     */
    static Resolved resolve(List<Translated> written, boolean included) {
        References references = new References(written, included);
        return new Resolved(references.resolve(written), List.copyOf(references.refreshes));
    }

    /** The resources as they run, and the {@code subscribe} edges between them. */
    record Resolved(List<Translated> resources, List<Edge> refreshes) {}

    private List<Translated> resolve(List<Translated> resources) {
        List<Translated> out = new ArrayList<>();
        for (Translated t : resources) {
            Translated unique = unique(t);
            boolean asks = !skippedByControl(t);
            String missing = firstMissing(unique, "require");
            if (asks && missing != null) {
                out.add(failing(included ? unique.id() : CcmNames.stop(unique.id()), unique, missing));
                return out; // CCM's run stops here: nothing after it runs
            }
            missing = firstMissing(unique, "subscribe");
            Translated runs = asks && missing != null ? failing(unique.id(), unique, missing) : unique;
            if (runs == unique) {
                set(unique, "require", resolved(unique, "require"));
                subscribe(unique);
            }
            out.add(runs);
            ids.add(unique.id());
            for (String name : names(t)) ran.put(name, runs.id()); // a reference to it reaches what runs in its place
            applied |= t.kind().equals("apply");
        }
        return out;
    }

    /** Its subscriptions to resources run before as edges; those the graph is to resolve stay a native subscribe. */
    private void subscribe(Translated t) {
        List<String> elsewhere = new ArrayList<>();
        for (String reference : references(t, "subscribe")) {
            if (ran.containsKey(reference)) refreshes.add(new Edge(ran.get(reference), t.id(), EdgeReason.REFRESH));
            else if (elsewhere(reference)) elsewhere.add(reference);
        }
        set(t, "subscribe", elsewhere);
    }

    /** What references {@code t}: {@code type#name}, and {@code type#alias} when it has one. */
    private static List<String> names(Translated t) {
        String alias = text(t.properties().get("alias"));
        return alias.isEmpty() ? List.of(t.kind() + "#" + t.name()) : List.of(t.kind() + "#" + t.name(), t.kind() + "#" + alias);
    }

    /** Whether the graph, not this manifest, is to resolve {@code reference}. */
    private boolean elsewhere(String reference) {
        return !written.contains(reference) && (included || applied);
    }

    /** {@code t}, or, when its id was taken by one written before, the same resource under a name of its own. */
    private Translated unique(Translated t) {
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

    private String firstMissing(Translated t, String property) {
        for (String reference : references(t, property)) {
            if (!ran.containsKey(reference) && !elsewhere(reference)) return reference;
        }
        return null;
    }

    /** The references as muster's ids: those of this manifest resolved, those left for the graph as written. */
    private List<String> resolved(Translated t, String property) {
        return references(t, property).stream().filter(r -> ran.containsKey(r) || elsewhere(r))
                .map(r -> ran.getOrDefault(r, r)).distinct().toList();
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
