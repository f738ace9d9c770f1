package io.muster.engine.compile;

import io.muster.engine.graph.Collect;
import io.muster.engine.graph.Vertex;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.Kinds;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Type;
import io.muster.engine.template.Scope;
import io.muster.engine.template.TemplateException;
import io.muster.engine.util.Suggest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a manifest's top-level {@code collect:} list: {@code {kind, tags, from, where, allow: {paths, kinds},
 * meta}} per block, its values rendered with the manifest's scope, each mistake reported at its line.
 */
final class CollectBlocks {
    static final String KEY = "collect";
    private static final List<String> KEYS = List.of("kind", "tags", "from", "where", "allow", "meta");
    private static final List<String> ALLOW_KEYS = List.of("paths", "kinds");

    private final Scope scope;
    private final Kinds kinds;
    private final Problems problems;

    CollectBlocks(Scope scope, Kinds kinds, Problems problems) {
        this.scope = scope;
        this.kinds = kinds;
        this.problems = problems;
    }

    /** The blocks of {@code section} (null: none); a block with a mistake is reported and left out. */
    List<Collect> read(YNode section) {
        if (section == null) return List.of();
        if (!(section instanceof YNode.Seq seq)) {
            problems.add(section.mark(), "collect: expected a list of blocks like {kind: file, tags: [..]}, got " + section.describe());
            return List.of();
        }
        List<Collect> blocks = new ArrayList<>();
        for (YNode item : seq.items()) {
            try {
                blocks.add(block(item));
            } catch (Invalid e) {
                // reported
            }
        }
        return blocks;
    }

    private Collect block(YNode item) throws Invalid {
        if (!(item instanceof YNode.Dict dict)) throw fail(item, "expected a map like {kind: file, tags: [..]}, got " + item.describe());
        for (YNode.Entry e : dict.entries().values()) {
            if (!KEYS.contains(e.key())) {
                problems.add(e.keyMark(), "collect: unknown key '" + e.key() + "'" + Suggest.hint(e.key(), KEYS) + "; expected " + String.join(", ", KEYS));
            }
        }
        YNode.Entry kindEntry = dict.entries().get("kind");
        if (kindEntry == null) throw fail(dict, "a block needs 'kind' (the one kind it collects)");
        ResourceKind kind = kind(kindEntry.value(), "kind");
        List<String> from = strings(dict.get("from"), "from");
        for (String pattern : from) pattern(dict.get("from"), pattern);
        Map<String, Object> where = where(dict.get("where"), kind);
        List<String> paths = List.of(), allowedKinds = List.of();
        YNode allow = dict.get("allow");
        if (allow != null) {
            if (!(allow instanceof YNode.Dict allowDict)) throw fail(allow, "allow: expected a map with 'paths' and 'kinds', got " + allow.describe());
            for (YNode.Entry e : allowDict.entries().values()) {
                if (!ALLOW_KEYS.contains(e.key())) throw fail(e.value(), "allow: unknown key '" + e.key() + "'; expected paths, kinds");
            }
            paths = absolute(allowDict.get("paths"));
            allowedKinds = strings(allowDict.get("kinds"), "allow.kinds");
            for (String name : allowedKinds) {
                if (kinds.get(name) == null) {
                    throw fail(allowDict.get("kinds"), "allow.kinds: unknown resource kind '" + name + "'" + Suggest.hint(name, kinds.names()));
                }
            }
        }
        Vertex.Meta meta = MetaParams.read(dict.entries().get("meta"), "collect", scope, problems);
        if (meta.exported()) throw fail(dict.get("meta"), "meta.export: a collected resource is not exported again");
        return new Collect(kind.name(), strings(dict.get("tags"), "tags"), from, where, paths, allowedKinds, meta, dict.mark());
    }

    private ResourceKind kind(YNode node, String what) throws Invalid {
        Object value = render(node, what);
        ResourceKind kind = value instanceof String name ? kinds.get(name) : null;
        if (kind == null) {
            String name = String.valueOf(value);
            throw fail(node, what + ": unknown resource kind '" + name + "'" + Suggest.hint(name, kinds.names())
                    + "; expected one of " + String.join(", ", kinds.names()));
        }
        return kind;
    }

    private void pattern(YNode node, String pattern) throws Invalid {
        try {
            HostPattern.parse(pattern);
        } catch (IllegalArgumentException e) {
            throw fail(node, "from: '" + pattern + "' is " + e.getMessage());
        }
    }

    /** {@code where}'s values, each type-checked by the kind's property of that name. */
    private Map<String, Object> where(YNode node, ResourceKind kind) throws Invalid {
        if (node == null) return Map.of();
        if (!(render(node, "where") instanceof Map<?, ?> map)) throw fail(node, "where: expected a map of property: value, got " + node.describe());
        Map<String, Object> where = new LinkedHashMap<>();
        for (var e : map.entrySet()) {
            String name = String.valueOf(e.getKey());
            Property property = kind.schema().property(name);
            if (property == null) {
                throw fail(node, "where: " + kind.name() + " has no property '" + name + "'" + Suggest.hint(name, kind.schema().properties().keySet()));
            }
            try {
                where.put(name, property.coerce(e.getValue()));
            } catch (IllegalArgumentException ex) {
                throw fail(node, "where: " + ex.getMessage());
            }
        }
        return where;
    }

    private List<String> absolute(YNode node) throws Invalid {
        List<String> paths = new ArrayList<>();
        for (String path : strings(node, "allow.paths")) {
            if (!path.startsWith("/")) throw fail(node, "allow.paths: expected absolute paths, got '" + path + "'");
            paths.add(Path.of(path).normalize().toString());
        }
        return paths;
    }

    private List<String> strings(YNode node, String what) throws Invalid {
        if (node == null) return List.of();
        Object list = Type.STRING_LIST.tryConvert(render(node, what));
        if (list == null) throw fail(node, what + ": expected a string or a list of strings, got " + node.describe());
        return ((List<?>) list).stream().map(Object::toString).toList();
    }

    private Object render(YNode node, String what) throws Invalid {
        try {
            return Rendering.render(node.plain(), scope);
        } catch (TemplateException e) {
            throw fail(node, what + ": " + e.getMessage());
        }
    }

    private Invalid fail(YNode node, String message) {
        problems.add(node.mark(), "collect: " + message);
        return new Invalid();
    }
}
