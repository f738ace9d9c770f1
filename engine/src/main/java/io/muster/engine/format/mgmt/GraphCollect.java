package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * mgmt's {@code collect: [{kind, pattern}]} as muster's collect blocks: the exports of that kind, a path kind's
 * under the {@code pattern} directory (all paths when it is empty), a kind that runs commands allowed by name.
 */
final class GraphCollect {
    private GraphCollect() {}

    static Optional<YNode> read(YNode collect, Problems problems) {
        if (collect == null || collect.plain() == null) return Optional.empty();
        if (!(collect instanceof YNode.Seq list)) {
            problems.add(collect.mark(), "collect: expected a list of {kind, pattern}, got " + collect.describe());
            return Optional.empty();
        }
        List<YNode> blocks = new ArrayList<>();
        for (YNode item : list.items()) {
            if (!(item instanceof YNode.Dict fields) || !(fields.get("kind") instanceof YNode.Scalar kind) || kind.value() == null) {
                problems.add(item.mark(), "collect: expected {kind, pattern}, got " + item.describe());
                continue;
            }
            Optional<KindTranslation> translation = MgmtKinds.of(kind.value().toString());
            if (translation.isEmpty()) {
                problems.add(kind.mark(), "collect: " + MgmtKinds.refusal(kind.value().toString()));
                continue;
            }
            String nativeKind = translation.get().nativeKind();
            String pattern = fields.get("pattern") instanceof YNode.Scalar p && p.value() != null && !p.value().toString().isEmpty()
                    ? p.value().toString() : "/";
            Map<String, YNode> allow = new LinkedHashMap<>();
            allow.put("paths", Node.texts(List.of(pattern), item.mark()));
            allow.put("kinds", Node.texts(List.of(nativeKind), item.mark()));
            Map<String, YNode> block = new LinkedHashMap<>();
            block.put("kind", Node.text(nativeKind, kind.mark()));
            block.put("allow", Node.dict(allow, item.mark()));
            blocks.add(Node.dict(block, item.mark()));
        }
        return Optional.of(new YNode.Seq(blocks, collect.mark()));
    }
}
