package io.muster.engine.compile;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.YNode;
import io.muster.engine.manifest.YamlReader;
import io.muster.engine.util.Maps;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * External data and facts from the command line: {@code --data port=8080 --data os.family=debian}. A
 * dotted key sets a nested value; the value is read as a YAML scalar, so {@code 8080} is a number and
 * {@code true} a boolean ({@code '"8080"'} stays a string).
 */
public final class Assignments {
    private Assignments() {}

    /**
     * @throws IllegalArgumentException naming the assignment and the form expected, when one is not
     *     {@code KEY=VALUE} with a KEY of names joined by dots (at most {@link YamlReader#MAX_DEPTH}, as deep
     *     as a manifest may nest)
     */
    public static Map<String, Object> parse(List<String> assignments, String flag) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String assignment : assignments) {
            int eq = assignment.indexOf('=');
            String key = eq < 0 ? "" : assignment.substring(0, eq).strip();
            String[] names = key.split("\\.", -1);
            if (Arrays.stream(names).anyMatch(String::isBlank) || names.length > YamlReader.MAX_DEPTH) {
                throw new IllegalArgumentException(flag + " " + YNode.printable(assignment) + ": expected KEY=VALUE, where KEY is a name"
                        + " or names joined by dots (port, os.family), at most " + YamlReader.MAX_DEPTH + " deep");
            }
            Maps.putPath(out, key, scalar(assignment.substring(eq + 1)));
        }
        return out;
    }

    /** A YAML or JSON file holding a map (facts for {@code --facts}). */
    public static Map<String, Object> readMap(Path file) throws ManifestException {
        YNode root = YamlReader.read(file);
        if (!(root instanceof YNode.Dict)) throw new ManifestException(root.mark(), "expected a map, got " + root.describe());
        return Maps.cast((Map<?, ?>) root.plain());
    }

    private static Object scalar(String text) {
        if (text.isEmpty()) return "";
        try {
            Object value = YamlReader.parse(Path.of("--data"), text).plain();
            return value instanceof Map<?, ?> || value instanceof List<?> || value == null ? text : value;
        } catch (ManifestException e) {
            return text;
        }
    }
}
