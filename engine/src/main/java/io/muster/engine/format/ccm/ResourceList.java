package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.util.Suggest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code ccm.resources}: a list of {@code - type: ...} items, each either one resource
 * ({@code {name: x, props...}}) or a list of {@code {name: props}} entries, where one {@code defaults} entry
 * gives every other entry of the list its properties (wherever it is written, as in CCM). Names are rendered now.
 */
final class ResourceList {
    private static final String DEFAULTS = "defaults";

    private final Map<String, CcmKind> kinds;
    private final Render render;
    private final Problems problems;

    ResourceList(List<CcmKind> kinds, Render render, Problems problems) {
        this.kinds = new LinkedHashMap<>();
        kinds.forEach(k -> this.kinds.put(k.name(), k));
        this.render = render;
        this.problems = problems;
    }

    /** Each resource translated, in the order written; one with problems is left out (they are reported). */
    List<Translated> read(YNode resources) {
        List<Translated> out = new ArrayList<>();
        if (!(resources instanceof YNode.Seq items)) {
            problems.add(resources.mark(), "ccm.resources: expected a list of resources like '- file: ...', got " + resources.describe());
            return out;
        }
        for (YNode item : items.items()) {
            if (!(item instanceof YNode.Dict dict) || dict.entries().size() != 1) {
                problems.add(item.mark(), "ccm.resources: expected one resource type per item, like '- file: ...'; got "
                        + (item instanceof YNode.Dict d ? d.entries().size() + " keys" : item.describe()));
                continue;
            }
            YNode.Entry only = dict.entries().values().iterator().next();
            CcmKind kind = kinds.get(only.key());
            if (kind == null) {
                problems.add(only.keyMark(), "unknown resource type '" + only.key() + "'" + Suggest.hint(only.key(), kinds.keySet())
                        + "; CCM's types are " + String.join(", ", kinds.keySet()));
                continue;
            }
            for (CcmResource r : resourcesOf(kind, only.value())) {
                r.rejectUnknown(kind.properties());
                Translated t = kind.translate(r);
                CommonProperties.translate(r, t);
                if (!r.invalid()) out.add(t);
            }
        }
        return out;
    }

    private List<CcmResource> resourcesOf(CcmKind kind, YNode body) {
        List<CcmResource> out = new ArrayList<>();
        if (body instanceof YNode.Dict single) {
            Map<String, YNode.Entry> props = new LinkedHashMap<>(single.entries());
            YNode.Entry name = props.remove("name");
            if (name == null) {
                problems.add(single.mark(), kind.name() + ": name is required (or write a list of '- name: {properties}' entries)");
            } else {
                resource(kind, name.value(), props, out);
            }
            return out;
        }
        if (!(body instanceof YNode.Seq entries)) {
            problems.add(body.mark(), kind.name() + ": expected a list of '- name: {properties}' entries or a map with a name, got " + body.describe());
            return out;
        }
        Map<String, YNode.Entry> defaults = defaults(kind, entries);
        for (YNode entry : entries.items()) {
            if (!(entry instanceof YNode.Dict d) || d.entries().size() != 1) {
                problems.add(entry.mark(), kind.name() + ": expected one '- name: {properties}' per item, got "
                        + (entry instanceof YNode.Dict d2 ? d2.entries().size() + " keys (check the indentation)" : entry.describe()));
                continue;
            }
            YNode.Entry e = d.entries().values().iterator().next();
            if (e.key().equals(DEFAULTS)) continue;
            Map<String, YNode.Entry> props = properties(kind, e);
            if (props != null) resource(kind, new YNode.Scalar(e.key(), e.keyMark()), CcmResource.merged(defaults, props), out);
        }
        return out;
    }

    private Map<String, YNode.Entry> defaults(CcmKind kind, YNode.Seq entries) {
        Map<String, YNode.Entry> found = null;
        for (YNode entry : entries.items()) {
            if (!(entry instanceof YNode.Dict d) || !d.entries().containsKey(DEFAULTS) || d.entries().size() != 1) continue;
            YNode.Entry e = d.entries().get(DEFAULTS);
            if (found != null) problems.add(e.keyMark(), kind.name() + ": multiple defaults found");
            found = properties(kind, e);
        }
        return found == null ? Map.of() : found;
    }

    private Map<String, YNode.Entry> properties(CcmKind kind, YNode.Entry entry) {
        if (entry.value() instanceof YNode.Dict d) return d.entries();
        if (entry.value() instanceof YNode.Scalar s && s.value() == null) return Map.of();
        problems.add(entry.value().mark(), kind.name() + " " + entry.key() + ": expected a map of properties, got " + entry.value().describe());
        return null;
    }

    private void resource(CcmKind kind, YNode nameNode, Map<String, YNode.Entry> props, List<CcmResource> out) {
        Mark mark = nameNode.mark();
        Object name;
        try {
            name = render.now(nameNode.plain(), mark);
        } catch (IllegalArgumentException e) {
            problems.add(mark, kind.name() + " " + nameNode.plain() + ": name: " + e.getMessage());
            return;
        }
        if (name == null || String.valueOf(name).isEmpty()) {
            problems.add(mark, kind.name() + ": name is required");
            return;
        }
        out.add(new CcmResource(kind.name(), String.valueOf(name), mark, props, render, problems));
    }
}
