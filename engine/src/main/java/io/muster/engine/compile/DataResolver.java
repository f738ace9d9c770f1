package io.muster.engine.compile;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.YNode;
import io.muster.engine.template.Lookup;
import io.muster.engine.template.Scope;
import io.muster.engine.template.TemplateException;
import io.muster.engine.util.Maps;
import io.muster.engine.util.Suggest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves a manifest's {@code data}: its defaults, then the {@code overrides} selected by the
 * {@code hierarchy} for this host's facts, then the {@code data} of the aggregate that includes it
 * (for a child manifest), then external data (the CLI's {@code --data}), which always wins.
 *
 * <p>{@code merge: first} takes each top-level key from the most specific level that sets it;
 * {@code merge: deep} merges nested maps across all matching levels, the most specific winning.
 */
final class DataResolver {
    private static final Set<String> HIERARCHY_KEYS = Set.of("order", "merge");

    private DataResolver() {}

    static Map<String, Object> resolve(YNode.Dict root, Scope base, Map<String, Object> applied, Map<String, Object> external)
            throws ManifestException {
        Map<String, Object> data = new LinkedHashMap<>();
        YNode dataNode = root.get("data");
        if (dataNode != null) data.putAll(renderDict(dict(dataNode, "data"), base));
        YNode hierarchy = root.get("hierarchy");
        YNode overrides = root.get("overrides");
        if (hierarchy != null) {
            Scope withData = new Scope(data, base.facts(), base.env(), base.directory(), Lookup.NONE, base.reads());
            data = applyHierarchy(dict(hierarchy, "hierarchy"), overrides == null ? null : dict(overrides, "overrides"), data, withData);
        } else if (overrides != null) {
            throw new ManifestException(overrides.mark(), "overrides need a hierarchy: {order: [...]} that selects them");
        }
        return Maps.deepMerge(Maps.deepMerge(data, applied), external);
    }

    private static Map<String, Object> applyHierarchy(YNode.Dict hierarchy, YNode.Dict overrides, Map<String, Object> data,
                                                      Scope scope) throws ManifestException {
        for (YNode.Entry e : hierarchy.entries().values()) {
            if (!HIERARCHY_KEYS.contains(e.key())) {
                throw new ManifestException(e.keyMark(), "unknown hierarchy key '" + e.key() + "'"
                        + Suggest.hint(e.key(), HIERARCHY_KEYS) + "; expected order and merge");
            }
        }
        YNode order = hierarchy.get("order");
        if (!(order instanceof YNode.Seq levels)) {
            throw new ManifestException(order == null ? hierarchy.mark() : order.mark(), "hierarchy.order: expected a list of level names");
        }
        String merge = mergeMode(hierarchy.get("merge"));
        List<Map<String, Object>> matched = new ArrayList<>();
        for (YNode level : levels.items()) {
            if (!(level instanceof YNode.Scalar s) || !(s.value() instanceof String text)) {
                throw new ManifestException(level.mark(), "hierarchy.order: expected a level name (a string), got " + level.describe());
            }
            String key = renderString(text, scope, level.mark());
            YNode override = overrides == null ? null : overrides.get(key);
            if (override != null) matched.add(Maps.cast((Map<?, ?>) Rendering.render(dict(override, "overrides." + key).plain(), scope)));
        }
        Map<String, Object> result = data;
        for (int i = matched.size() - 1; i >= 0; i--) {
            if (merge.equals("deep")) {
                result = Maps.deepMerge(result, matched.get(i));
            } else {
                result = new LinkedHashMap<>(result);
                result.putAll(matched.get(i));
            }
        }
        return result;
    }

    private static String mergeMode(YNode node) throws ManifestException {
        if (node == null) return "first";
        Object value = node.plain();
        if ("first".equals(value) || "deep".equals(value)) return (String) value;
        throw new ManifestException(node.mark(), "hierarchy.merge: expected first or deep, got " + node.describe());
    }

    private static Map<String, Object> renderDict(YNode node, Scope scope) throws ManifestException {
        try {
            return Maps.cast((Map<?, ?>) Rendering.render(node.plain(), scope));
        } catch (TemplateException e) {
            throw new ManifestException(node.mark(), "data: " + e.getMessage());
        }
    }

    private static String renderString(String text, Scope scope, Mark mark) throws ManifestException {
        try {
            return String.valueOf(Rendering.render(text, scope));
        } catch (TemplateException e) {
            throw new ManifestException(mark, "hierarchy.order: " + e.getMessage());
        }
    }

    private static YNode.Dict dict(YNode node, String what) throws ManifestException {
        if (node instanceof YNode.Dict d) return d;
        if (node instanceof YNode.Scalar s && s.value() == null) return new YNode.Dict(Map.of(), node.mark());
        throw new ManifestException(node.mark(), what + ": expected a map, got " + node.describe());
    }
}
