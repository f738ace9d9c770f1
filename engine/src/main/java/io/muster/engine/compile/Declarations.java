package io.muster.engine.compile;

import io.muster.engine.graph.Origin;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.Kinds;
import io.muster.engine.resource.LexicalPath;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.template.Scope;
import io.muster.engine.template.TemplateException;
import io.muster.engine.util.Suggest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code resources:} list: blocks of {@code {kind: [ {name: props} | {defaults: props} ]}},
 * where {@code defaults} apply to the entries after them in the same block, or the direct form
 * {@code {kind: {name: x, props...}}}.
 */
final class Declarations {
    private static final String DEFAULTS = "defaults";

    private final Problems problems;
    private final Scope scope;
    private final Origin origin;
    private final Kinds kinds;

    Declarations(Problems problems, Scope scope, Origin origin, Kinds kinds) {
        this.kinds = kinds;
        this.problems = problems;
        this.scope = scope;
        this.origin = origin;
    }

    List<Declaration> read(YNode resources) {
        List<Declaration> out = new ArrayList<>();
        if (resources == null) return out;
        if (!(resources instanceof YNode.Seq blocks)) {
            if (!(resources instanceof YNode.Scalar s && s.value() == null)) {
                problems.add(resources.mark(), "resources: expected a list of {kind: [...]} blocks, got " + resources.describe());
            }
            return out;
        }
        for (YNode block : blocks.items()) {
            if (!(block instanceof YNode.Dict dict) || dict.entries().size() != 1) {
                problems.add(block.mark(), "expected a block with one resource kind, like '- file: [...]'; got "
                        + (block instanceof YNode.Dict d ? d.entries().size() + " keys" : block.describe()));
                continue;
            }
            YNode.Entry only = dict.entries().values().iterator().next();
            ResourceKind kind = kinds.get(only.key());
            if (kind == null) {
                problems.add(only.keyMark(), "unknown resource kind '" + only.key() + "'" + Suggest.hint(only.key(), kinds.names())
                        + "; known kinds: " + String.join(", ", kinds.names()));
                continue;
            }
            readBlock(kind, only.value(), out);
        }
        return out;
    }

    /** Resources of {@code kind} with no properties, one per name (a template, as any name): what a {@code nodes:} section declares. */
    List<Declaration> bare(ResourceKind kind, List<YNode.Scalar> names) {
        List<Declaration> out = new ArrayList<>();
        for (YNode.Scalar name : names) add(kind, (String) name.value(), name.mark(), Map.of(), Map.of(), out);
        return out;
    }

    private void readBlock(ResourceKind kind, YNode body, List<Declaration> out) {
        if (body instanceof YNode.Dict direct) {
            readDirect(kind, direct, out);
            return;
        }
        if (!(body instanceof YNode.Seq entries)) {
            problems.add(body.mark(), kind.name() + ": expected a list of {name: properties} entries, got " + body.describe());
            return;
        }
        Map<String, YNode.Entry> defaults = Map.of();
        for (YNode entry : entries.items()) {
            if (entry instanceof YNode.Scalar s && s.value() instanceof String name) {
                add(kind, name, entry.mark(), Map.of(), defaults, out); // "- /tmp/x" with no properties
                continue;
            }
            if (!(entry instanceof YNode.Dict d) || d.entries().size() != 1) {
                problems.add(entry.mark(), kind.name() + ": expected one '{name: properties}' per list item, got "
                        + (entry instanceof YNode.Dict d2 ? d2.entries().size() + " keys (check the indentation)" : entry.describe()));
                continue;
            }
            YNode.Entry e = d.entries().values().iterator().next();
            Map<String, YNode.Entry> props = properties(kind, e);
            if (props == null) continue;
            if (e.key().equals(DEFAULTS)) {
                defaults = props;
            } else {
                add(kind, e.key(), e.keyMark(), props, defaults, out);
            }
        }
    }

    private void readDirect(ResourceKind kind, YNode.Dict direct, List<Declaration> out) {
        YNode name = direct.get("name");
        if (!(name instanceof YNode.Scalar s) || s.value() == null) {
            problems.add(direct.mark(), kind.name() + ": expected a list of {name: properties} entries, or a map with a 'name'");
            return;
        }
        Map<String, YNode.Entry> props = new LinkedHashMap<>(direct.entries());
        props.remove("name");
        add(kind, s.value().toString(), name.mark(), props, Map.of(), out);
    }

    private Map<String, YNode.Entry> properties(ResourceKind kind, YNode.Entry entry) {
        YNode value = entry.value();
        if (value instanceof YNode.Dict d) return d.entries();
        if (value instanceof YNode.Scalar s && s.value() == null) return Map.of();
        problems.add(value.mark(), kind.name() + "#" + entry.key() + ": expected a map of properties, got " + value.describe());
        return null;
    }

    private void add(ResourceKind kind, String rawName, Mark mark, Map<String, YNode.Entry> props,
                     Map<String, YNode.Entry> defaults, List<Declaration> out) {
        String name;
        try {
            name = String.valueOf(Rendering.render(rawName, scope));
        } catch (TemplateException e) {
            problems.add(mark, kind.name() + "#" + rawName + ": name: " + e.getMessage());
            return;
        }
        if (name.isBlank()) {
            problems.add(mark, kind.name() + ": the resource name is empty");
            return;
        }
        Map<String, YNode.Entry> merged = new LinkedHashMap<>(defaults);
        merged.putAll(props);
        // every report and log line shows the name: a control character would garble them (a path is checked as one)
        String control = CanonicalIds.namesPath(kind) && !merged.containsKey(kind.schema().nameProperty())
                ? null : LexicalPath.controlCharacter(name, "a resource name");
        if (control != null) {
            problems.add(mark, kind.name() + "#" + name + ": name: " + control);
            return;
        }
        name = CanonicalIds.name(kind, name); // file#//a is file#/a; the mark keeps the spelling
        out.add(Receivers.expand(new Declaration(kind, name, mark, merged, scope, origin), problems));
    }
}
