package io.muster.engine.compile;

import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A manifest's {@code nodes:} section, Salt's top file: host-name patterns ({@link HostPattern}), each mapped
 * to a manifest path or a list of them. Every pattern that matches the host adds its manifests, in the order
 * the section lists them; {@code default} adds its own only when no pattern matched. A host that nothing
 * matches gets none. Every pattern and value is checked, not only those that match this host, so that a
 * manifest valid for one host is valid for all.
 */
final class NodesSection {
    static final String KEY = "nodes";
    private static final String DEFAULT = "default";
    private static final String EXPECTED_PATTERN = "expected a host-name glob (web*, db-?.example.com, [ab]*), a /regex/ or default";

    private NodesSection() {}

    /** The manifest paths the section gives {@code host}, as written, in order; problems are reported, their entries skipped. */
    static List<YNode.Scalar> manifests(YNode section, Supplier<String> host, Problems problems) {
        if (section == null || section instanceof YNode.Scalar s && s.value() == null) return List.of();
        if (!(section instanceof YNode.Dict patterns)) {
            problems.add(section.mark(), KEY + ": expected a map of host-name patterns to manifests, got " + section.describe());
            return List.of();
        }
        List<YNode.Scalar> matched = new ArrayList<>();
        List<YNode.Scalar> fallback = List.of();
        boolean anyMatched = false;
        for (YNode.Entry entry : patterns.entries().values()) {
            HostPattern pattern = entry.key().equals(DEFAULT) ? null : pattern(entry, problems);
            List<YNode.Scalar> paths = paths(entry, problems);
            if (entry.key().equals(DEFAULT)) {
                fallback = paths;
            } else if (pattern != null && pattern.matches(host.get())) {
                anyMatched = true;
                matched.addAll(paths);
            }
        }
        return anyMatched ? matched : fallback;
    }

    private static HostPattern pattern(YNode.Entry entry, Problems problems) {
        try {
            return HostPattern.parse(entry.key());
        } catch (IllegalArgumentException e) {
            problems.add(entry.keyMark(), KEY + ": '" + entry.key() + "' is " + e.getMessage() + "; " + EXPECTED_PATTERN);
            return null;
        }
    }

    /** A path, or a list of paths, relative to the manifest's directory. */
    private static List<YNode.Scalar> paths(YNode.Entry entry, Problems problems) {
        List<YNode> items = entry.value() instanceof YNode.Seq seq ? seq.items() : List.of(entry.value());
        List<YNode.Scalar> paths = new ArrayList<>();
        for (YNode item : items) {
            if (item instanceof YNode.Scalar s && s.value() instanceof String path && !path.isBlank()) {
                paths.add(s);
            } else {
                problems.add(item.mark(), KEY + "." + entry.key() + ": expected a manifest path (relative to this manifest) or a list of them, got "
                        + item.describe());
            }
        }
        return paths;
    }
}
