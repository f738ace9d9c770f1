package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * mgmt's {@code meta:} (which mgmt's own YAML reader drops; muster honours it): the metaparams muster shares
 * with mgmt, with mgmt's units (milliseconds of {@code delay}, seconds of {@code poll}), and an {@code @@} name
 * as muster's {@code export}. mgmt's others ({@code hidden}, {@code dollar}, {@code retryreset}, …) are ignored.
 */
final class MetaTranslation {
    private static final Set<String> SHARED = Set.of("noop", "retry", "delay", "poll", "limit", "burst", "sema",
            "rewatch", "realize", "reverse", "autoedge", "autogroup");

    private MetaTranslation() {}

    static Optional<YNode> of(MgmtResource r, boolean exported) {
        Map<String, YNode> out = new LinkedHashMap<>();
        Optional<YNode> meta = r.node("meta");
        if (meta.isPresent() && meta.get() instanceof YNode.Dict dict) {
            dict.entries().forEach((key, e) -> {
                if (SHARED.contains(key) && e.value().plain() != null) out.put(key, yaml11(e.value()));
            });
        } else if (meta.isPresent()) {
            r.problem("meta", "expected a map of metaparams, got " + meta.get().describe());
        }
        if (exported) out.put("export", new YNode.Scalar(true, r.mark()));
        return out.isEmpty() ? Optional.empty() : Optional.of(Node.dict(out, r.markOf("meta")));
    }

    /** A metaparam's value, a YAML 1.1 boolean ({@code yes}, {@code off}) as the boolean mgmt reads. */
    private static YNode yaml11(YNode value) {
        if (value instanceof YNode.Scalar s && !(s.value() instanceof Boolean)) {
            return Node.bool(s.value()).<YNode>map(b -> new YNode.Scalar(b, s.mark())).orElse(value);
        }
        return value;
    }
}
