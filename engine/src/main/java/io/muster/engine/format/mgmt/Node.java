package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the native tree that an mgmt graph becomes. mgmt's strings are plain text, so a string is written so
 * that muster's templates leave it as it is: {@code ${} becomes {@code $${} and {@code {{} the expression
 * {@code ${ '{{' }}.
 */
final class Node {
    private Node() {}

    static YNode.Scalar text(String value, Mark mark) {
        return new YNode.Scalar(literal(value), mark);
    }

    static YNode.Scalar value(Object value, Mark mark) {
        return value instanceof String s ? text(s, mark) : new YNode.Scalar(value, mark);
    }

    static YNode.Seq texts(List<String> values, Mark mark) {
        return new YNode.Seq(values.stream().<YNode>map(v -> text(v, mark)).toList(), mark);
    }

    /** A mapping of {@code entries} (keys in order), each key marked where its value was written. */
    static YNode.Dict dict(Map<String, YNode> entries, Mark mark) {
        Map<String, YNode.Entry> out = new LinkedHashMap<>();
        entries.forEach((k, v) -> out.put(k, new YNode.Entry(k, v.mark(), v)));
        return new YNode.Dict(out, mark);
    }

    /**
     * {@code value} as mgmt's YAML 1.1 decoder reads a boolean: also {@code yes}, {@code no}, {@code on},
     * {@code off}, {@code y} and {@code n} in their usual cases, which YAML 1.2 reads as text. Empty for anything else.
     */
    static Optional<Boolean> bool(Object value) {
        if (value instanceof Boolean b) return Optional.of(b);
        if (!(value instanceof String s)) return Optional.empty();
        return switch (s) {
            case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE" -> Optional.of(true);
            case "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    /** {@code value} with every template opening escaped. */
    static String literal(String value) {
        if (!value.contains("${") && !value.contains("{{")) return value;
        StringBuilder out = new StringBuilder(value.length() + 8);
        int i = 0;
        while (i < value.length()) {
            if (value.startsWith("${", i)) {
                out.append("$${");
                i += 2;
            } else if (value.startsWith("{{", i)) {
                out.append("${ '{{' }");
                i += 2;
            } else {
                out.append(value.charAt(i++));
            }
        }
        return out.toString();
    }
}
