package io.muster.engine.compile;

import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.util.Suggest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * mgmt's Send/Recv as bindings: {@code recv: {content: "exec#myip.stdout"}} means the same as
 * {@code content: "${ lookup('exec#myip.stdout') }"}, so the value keeps its type, the dependency edge is
 * added, and the property is rendered just before the resource runs (and again whenever the value changes).
 */
final class Receivers {
    private static final Pattern REFERENCE = Pattern.compile("[a-z][a-z0-9_]*#.+\\.[A-Za-z0-9_]+");

    private Receivers() {}

    /** {@code d} with its {@code recv} bindings turned into properties; {@code d} itself when it has none. */
    static Declaration expand(Declaration d, Problems problems) {
        YNode.Entry recv = d.properties().get("recv");
        if (recv == null) return d;
        Map<String, YNode.Entry> properties = new LinkedHashMap<>(d.properties());
        properties.remove("recv");
        if (!(recv.value() instanceof YNode.Dict bindings)) {
            problems.add(recv.value().mark(), d.id() + ": recv: expected a map of property: kind#name.field, got " + recv.value().describe());
            return d.withProperties(properties);
        }
        for (YNode.Entry binding : bindings.entries().values()) {
            String property = binding.key();
            Object reference = binding.value().plain();
            if (d.kind().schema().property(property) == null) {
                problems.add(binding.keyMark(), d.id() + ": recv: no property '" + property + "'"
                        + Suggest.hint(property, d.kind().schema().properties().keySet()) + " to receive into");
            } else if (properties.containsKey(property)) {
                problems.add(binding.keyMark(), d.id() + ": recv: '" + property + "' is also set directly; set it one way");
            } else if (!(reference instanceof String ref) || !REFERENCE.matcher(ref).matches()) {
                problems.add(binding.value().mark(), d.id() + ": recv." + property + ": expected a value reference like 'exec#myip.stdout', got "
                        + binding.value().describe());
            } else {
                YNode template = new YNode.Scalar("${ lookup('" + ref.replace("'", "\\'") + "') }", binding.value().mark());
                properties.put(property, new YNode.Entry(property, binding.keyMark(), template));
            }
        }
        return d.withProperties(properties);
    }
}
