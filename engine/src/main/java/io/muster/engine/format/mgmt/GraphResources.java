package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code resources:} of an mgmt graph, translated: each resource's native kind, name (without an export's
 * {@code @@}) and properties, found by mgmt's kind (any case) and name for the edges that name them.
 */
final class GraphResources {

    /** One translated resource, and its mgmt fields as written; edges add its relations. */
    record Translated(String nativeKind, String name, Map<String, YNode> properties, Mark mark, boolean exported, Object written) {
        String id() {
            return nativeKind + "#" + name;
        }

        /** Adds {@code id} to this resource's {@code relation} list ({@code before} or {@code notify}). */
        void relate(String relation, String id, Mark where) {
            YNode.Seq list = (YNode.Seq) properties.computeIfAbsent(relation, k -> new YNode.Seq(new ArrayList<>(), where));
            list.items().add(Node.text(id, where));
        }
    }

    private final Map<String, Translated> byKindAndName = new LinkedHashMap<>();

    private GraphResources() {}

    static GraphResources read(YNode resources, Problems problems) {
        GraphResources out = new GraphResources();
        if (resources == null || resources.plain() == null) return out;
        if (!(resources instanceof YNode.Dict kinds)) {
            problems.add(resources.mark(), "resources: expected a map of kinds to lists of resources, got " + resources.describe());
            return out;
        }
        for (YNode.Entry kind : kinds.entries().values()) {
            Optional<KindTranslation> translation = MgmtKinds.of(kind.key());
            if (translation.isEmpty()) {
                problems.add(kind.keyMark(), "resources: " + MgmtKinds.refusal(kind.key()));
                continue;
            }
            if (kind.value().plain() == null) continue;
            if (!(kind.value() instanceof YNode.Seq list)) {
                problems.add(kind.value().mark(), "resources: " + kind.key() + ": expected a list of resources, got " + kind.value().describe());
                continue;
            }
            for (YNode item : list.items()) out.add(kind.key(), item, translation.get(), problems);
        }
        return out;
    }

    private void add(String kind, YNode item, KindTranslation translation, Problems problems) {
        if (!(item instanceof YNode.Dict fields)) {
            problems.add(item.mark(), "resources: " + kind + ": expected a resource (a map with a name), got " + item.describe());
            return;
        }
        YNode nameNode = fields.get("name");
        if (!(nameNode instanceof YNode.Scalar s) || s.value() == null || s.value().toString().isEmpty()) {
            problems.add(nameNode == null ? item.mark() : nameNode.mark(), "resources: " + kind + ": a resource needs a name");
            return;
        }
        String written = s.value().toString();
        boolean exported = written.startsWith("@@");
        String name = exported ? written.substring(2) : written;
        MgmtResource resource = new MgmtResource(kind, written, fields, problems);
        Map<String, YNode> properties = new LinkedHashMap<>();
        properties.put("name", Node.text(name, nameNode.mark()));
        properties.putAll(translation.properties(resource));
        MetaTranslation.of(resource, exported).ifPresent(m -> properties.put("meta", m));
        String key = key(kind, written);
        Translated earlier = byKindAndName.get(key);
        if (earlier != null) {
            // mgmt keeps one vertex for resources that compare equal; two different ones of a name are a mistake
            if (!earlier.written().equals(fields.plain())) {
                problems.add(nameNode.mark(), "resources: " + kind + ": a second, different resource named '" + written + "'");
            }
            return;
        }
        byKindAndName.put(key, new Translated(translation.nativeKind(), name, properties, item.mark(), exported, fields.plain()));
    }

    /** The resource an edge names: mgmt's kind in any case, and its name; exported ones are not in this graph. */
    Optional<Translated> find(String kind, String name) {
        return Optional.ofNullable(byKindAndName.get(key(kind, name))).filter(t -> !t.exported());
    }

    private static String key(String kind, String name) {
        return kind.toLowerCase(Locale.ROOT) + "\0" + name;
    }

    /** The native {@code resources:} list: one block per resource, in the order written. */
    YNode.Seq toNative(Mark mark) {
        List<YNode> blocks = new ArrayList<>();
        for (Translated t : byKindAndName.values()) {
            blocks.add(Node.dict(Map.of(t.nativeKind(), Node.dict(t.properties(), t.mark())), t.mark()));
        }
        return new YNode.Seq(blocks, mark);
    }
}
