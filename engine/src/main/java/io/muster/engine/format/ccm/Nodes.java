package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the native manifest's nodes, each with the mark of the CCM text it comes from. */
final class Nodes {
    private Nodes() {}

    static YNode.Scalar scalar(Object value, Mark mark) {
        return new YNode.Scalar(value, mark);
    }

    static YNode.Seq seq(List<YNode> items, Mark mark) {
        return new YNode.Seq(List.copyOf(items), mark);
    }

    /** A mapping of {@code values}, each key marked where its value is. */
    static YNode.Dict dict(Map<String, YNode> values, Mark mark) {
        Map<String, YNode.Entry> entries = new LinkedHashMap<>();
        values.forEach((key, value) -> entries.put(key, new YNode.Entry(key, value.mark(), value)));
        return new YNode.Dict(entries, mark);
    }

    /** A plain value (data passed on) as nodes, all marked at {@code mark}. */
    static YNode of(Object plain, Mark mark) {
        if (plain instanceof Map<?, ?> map) {
            Map<String, YNode> values = new LinkedHashMap<>();
            map.forEach((k, v) -> values.put(String.valueOf(k), of(v, mark)));
            return dict(values, mark);
        }
        if (plain instanceof List<?> list) return seq(list.stream().map(v -> of(v, mark)).toList(), mark);
        return scalar(plain, mark);
    }
}
