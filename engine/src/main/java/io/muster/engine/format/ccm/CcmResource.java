package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.util.Suggest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One resource of a CCM manifest as written (its type, name and properties, defaults merged in), read the way
 * CCM's model reads it: a property CCM resolves when it parses the manifest is rendered now, with the manifest's
 * data ({@link Render}); one it resolves just before the resource runs (file content, exec command…) is passed on
 * as written, for the CCM template dialect to render then. Every problem names this resource and the property.
 */
final class CcmResource {
    private final String type;
    private final String name;
    private final Mark mark;
    private final Map<String, YNode.Entry> properties;
    private final Render render;
    private final Problems problems;
    private boolean invalid;
    private final Set<String> unrendered = new HashSet<>();

    CcmResource(String type, String name, Mark mark, Map<String, YNode.Entry> properties, Render render, Problems problems) {
        this.type = type;
        this.name = name;
        this.mark = mark;
        this.properties = properties;
        this.render = render;
        this.problems = problems;
    }

    String type() {
        return type;
    }

    String name() {
        return name;
    }

    Mark mark() {
        return mark;
    }

    String id() {
        return type + "#" + name;
    }

    boolean has(String property) {
        return properties.containsKey(property);
    }

    Optional<YNode.Entry> entry(String property) {
        return Optional.ofNullable(properties.get(property));
    }

    /** Whether a problem was reported for this resource. */
    boolean invalid() {
        return invalid;
    }

    /** Reports a problem at this resource's name. */
    void problem(String message) {
        problem(mark, message);
    }

    void problem(Mark at, String message) {
        invalid = true;
        problems.add(at, type + " " + name + ": " + message);
    }

    /** Reports each property that is neither common nor one of {@code own}: CCM's schema refuses them. */
    void rejectUnknown(Collection<String> own) {
        Set<String> known = new TreeSet<>(CommonProperties.NAMES);
        known.addAll(own);
        for (YNode.Entry e : properties.values()) {
            if (!known.contains(e.key())) {
                problem(e.keyMark(), "unknown property '" + e.key() + "'" + Suggest.hint(e.key(), known) + "; " + type
                        + " takes " + String.join(", ", known));
            }
        }
    }

    /** The property rendered now, as a string ({@code ""} when unset, as CCM's zero value). */
    String string(String property) {
        YNode.Entry e = properties.get(property);
        if (e == null) return "";
        Object value = rendered(e);
        if (value == null) return "";
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            problem(e.value().mark(), property + ": expected a string, got " + e.value().describe());
            return "";
        }
        return String.valueOf(value);
    }

    /** The property rendered now, of any type (null when unset). */
    Object value(String property) {
        YNode.Entry e = properties.get(property);
        return e == null ? null : rendered(e);
    }

    /** The property rendered now, as a boolean (false when unset). */
    boolean bool(String property) {
        YNode.Entry e = properties.get(property);
        if (e == null) return false;
        Object value = rendered(e);
        if (value instanceof Boolean b) return b;
        if (value instanceof String s && (s.equals("true") || s.equals("false"))) return Boolean.parseBoolean(s);
        problem(e.value().mark(), property + ": expected true or false, got " + e.value().describe());
        return false;
    }

    /** The property rendered now, as a list of strings (empty when unset); a single string is a list of one. */
    List<String> strings(String property) {
        YNode.Entry e = properties.get(property);
        if (e == null) return List.of();
        Object value = rendered(e);
        if (value instanceof String s) return List.of(s);
        List<String> out = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> || item instanceof List<?> || item == null) {
                    problem(e.value().mark(), property + ": expected a list of strings");
                    return List.of();
                }
                out.add(String.valueOf(item));
            }
            return out;
        }
        problem(e.value().mark(), property + ": expected a list of strings, got " + e.value().describe());
        return List.of();
    }

    /** The value of a CCM expression (a scaffold template's tag) with {@code data}, or null when reported as invalid. */
    Object evaluate(String expression, Map<String, Object> data) {
        try {
            return render.evaluate(expression, data);
        } catch (IllegalArgumentException failure) {
            throw new IllegalArgumentException("'" + expression + "': " + failure.getMessage(), failure);
        }
    }

    /** {@code text} rendered as a Jet template (a scaffold's) with {@code data}. */
    String jet(String text, String left, String right, Map<String, Object> data) {
        return render.jet(text, left, right, data);
    }

    /**
     * A {@code control} condition's value: a CCM expression evaluated now, with the data, facts and environment it
     * would see when the resource runs; null when reported as invalid.
     */
    Object condition(String key, YNode node) {
        if (!(node.plain() instanceof String expression)) return node.plain();
        try {
            return render.evaluate(expression);
        } catch (IllegalArgumentException failure) {
            problem(node.mark(), "control." + key + ": " + failure.getMessage());
            return null;
        }
    }

    /**
     * A property CCM renders just before the resource runs (file content, exec command…), as written: the CCM
     * dialect renders it at run time.
     */
    Optional<YNode> deferred(String property) {
        return entry(property).map(YNode.Entry::value);
    }

    /** Where the property's value is written, or the resource's name when it is unset. */
    Mark markOf(String property) {
        YNode.Entry e = properties.get(property);
        return e == null ? mark : e.value().mark();
    }

    private Object rendered(YNode.Entry e) {
        return rendered(e.key(), e.value());
    }

    /** A node of the property (the property's value, or a part of it) rendered now; null when reported. */
    Object rendered(String property, YNode node) {
        try {
            return render.now(node.plain(), node.mark());
        } catch (IllegalArgumentException failure) {
            problem(node.mark(), property + ": " + failure.getMessage());
            unrendered.add(property);
            return null;
        }
    }

    /** Whether the property's template could not be rendered (reported already): its value says nothing more. */
    boolean unrendered(String property) {
        return unrendered.contains(property);
    }

    /** The resource with {@code values} under these keys in its properties (CCM's defaults merged). */
    static Map<String, YNode.Entry> merged(Map<String, YNode.Entry> defaults, Map<String, YNode.Entry> own) {
        Map<String, YNode.Entry> merged = new LinkedHashMap<>(defaults);
        merged.putAll(own);
        return merged;
    }
}
