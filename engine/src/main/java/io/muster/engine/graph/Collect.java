package io.muster.engine.graph;

import io.muster.engine.manifest.Mark;
import io.muster.engine.util.Plain;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@code collect:} block: the exports of other hosts that join this host's graph, and what it trusts them with.
 *
 * @param kind the one kind it collects
 * @param tags an export must carry every one
 * @param from host patterns of the exporters (as a {@code nodes:} section's); none: any host
 * @param where property to the value an export's must equal, type-checked by the kind's schema
 * @param allowPaths absolute prefixes a collected path resource must lie under
 * @param allowKinds kinds that run commands, which are collected only when named here
 * @param meta the metaparams collected resources run with
 * @param mark where the block is written
 */
public record Collect(String kind, List<String> tags, List<String> from, Map<String, Object> where, List<String> allowPaths,
                      List<String> allowKinds, Vertex.Meta meta, Mark mark) {
    public Collect {
        Objects.requireNonNull(kind, "kind");
        tags = List.copyOf(tags);
        from = List.copyOf(from);
        where = Plain.map(where);
        allowPaths = List.copyOf(allowPaths);
        allowKinds = List.copyOf(allowKinds);
        Objects.requireNonNull(meta, "meta");
        Objects.requireNonNull(mark, "mark");
    }
}
