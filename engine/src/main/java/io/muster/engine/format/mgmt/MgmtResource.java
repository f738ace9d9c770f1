package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One entry of an mgmt graph's {@code resources:}, read as mgmt's YAML decoder reads it: a scalar given where
 * text is wanted is its text ({@code owner: 1} is {@code "1"}), keys mgmt does not know are ignored. A value of
 * the wrong shape is a problem at its line and column.
 */
final class MgmtResource {
    private final String kind;
    private final String name;
    private final YNode.Dict fields;
    private final Problems problems;

    MgmtResource(String kind, String name, YNode.Dict fields, Problems problems) {
        this.kind = kind;
        this.name = name;
        this.fields = fields;
        this.problems = problems;
    }

    /** The kind as written under {@code resources:}. */
    String kind() {
        return kind;
    }

    /** The name as written (an export's {@code @@} included). */
    String name() {
        return name;
    }

    Mark mark() {
        return fields.mark();
    }

    /** The value of {@code key}, if written and not null. */
    Optional<YNode> node(String key) {
        YNode value = fields.get(key);
        if (value instanceof YNode.Scalar s && s.value() == null) return Optional.empty();
        return Optional.ofNullable(value);
    }

    /** Where {@code key}'s value was written (the resource's mark when it was not). */
    Mark markOf(String key) {
        return node(key).map(YNode::mark).orElse(mark());
    }

    /** {@code key}'s text; the empty string counts as unset, as in mgmt. */
    Optional<String> string(String key) {
        Optional<YNode> node = node(key);
        if (node.isEmpty()) return Optional.empty();
        if (node.get() instanceof YNode.Scalar s) {
            String text = s.value().toString();
            return text.isEmpty() ? Optional.empty() : Optional.of(text);
        }
        problem(key, "expected text, got " + node.get().describe());
        return Optional.empty();
    }

    /** {@code key}'s text, the empty string included (an {@code ''} that means "none"). */
    Optional<String> rawString(String key) {
        Optional<YNode> node = node(key);
        if (node.isPresent() && node.get() instanceof YNode.Scalar s) return Optional.of(s.value().toString());
        return string(key);
    }

    boolean bool(String key) {
        Optional<YNode> node = node(key);
        if (node.isEmpty()) return false;
        Optional<Boolean> value = node.get() instanceof YNode.Scalar s ? Node.bool(s.value()) : Optional.empty();
        if (value.isEmpty()) problem(key, "expected true or false, got " + node.get().describe());
        return value.orElse(false);
    }

    /** {@code key}'s list of texts (empty when unset). */
    List<String> strings(String key) {
        Optional<YNode> node = node(key);
        if (node.isEmpty()) return List.of();
        List<String> out = new ArrayList<>();
        if (node.get() instanceof YNode.Seq seq) {
            for (YNode item : seq.items()) {
                if (item instanceof YNode.Scalar s && s.value() != null) out.add(s.value().toString());
                else problems.add(item.mark(), id() + ": " + key + ": expected a list of texts, got " + item.describe() + " in it");
            }
        } else {
            problem(key, "expected a list of texts, got " + node.get().describe());
        }
        return out;
    }

    /** {@code key}'s map of texts (empty when unset). */
    Map<String, String> stringMap(String key) {
        Optional<YNode> node = node(key);
        Map<String, String> out = new LinkedHashMap<>();
        if (node.isEmpty()) return out;
        if (node.get() instanceof YNode.Dict dict) {
            dict.entries().forEach((k, e) -> out.put(k, e.value().plain() == null ? "" : e.value().plain().toString()));
        } else {
            problem(key, "expected a map, got " + node.get().describe());
        }
        return out;
    }

    /** A problem with {@code key}'s value, at its line and column. */
    void problem(String key, String message) {
        problems.add(markOf(key), id() + ": " + key + ": " + message);
    }

    /** A key mgmt knows whose meaning muster cannot give: an error when it is set, rather than a silent difference. */
    void refuse(String key, String why) {
        if (node(key).isPresent() && !(node(key).get() instanceof YNode.Scalar s && s.value().toString().isEmpty())) {
            problem(key, "not supported by muster: " + why);
        }
    }

    /** How messages name this resource: mgmt's {@code kind[name]}. */
    String id() {
        return kind + "[" + name + "]";
    }
}
