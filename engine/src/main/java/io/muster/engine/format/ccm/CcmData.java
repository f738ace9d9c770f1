package io.muster.engine.format.ccm;

import io.muster.engine.format.ForeignManifest;
import io.muster.engine.format.ccm.hiera.CcmHiera;
import io.muster.engine.format.ccm.hiera.CcmHieraException;
import io.muster.engine.format.ccm.hiera.Merging;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.YNode;
import io.muster.engine.util.Maps;
import java.util.List;
import java.util.Map;

/**
 * A CCM manifest's data: its own ({@code data}, {@code hierarchy}, {@code overrides}, by CCM's hiera), with the
 * data of the {@code apply} that includes it deep-merged over it (as CCM's apply overrides the child's resolved
 * data), and external data ({@code --data}) over all.
 */
final class CcmData {
    private CcmData() {}

    static Map<String, Object> resolve(YNode.Dict top, ForeignManifest source) throws ManifestException {
        Map<String, Object> own;
        try {
            own = CcmHiera.resolve(Maps.cast((Map<?, ?>) top.plain()), source.facts());
        } catch (CcmHieraException e) {
            throw new ManifestException(at(top, e.path()).mark(), e.getMessage());
        }
        return Maps.deepMerge(Merging.deep(own, source.aggregateData()), source.externalData());
    }

    /** The deepest node of {@code path} written in the manifest. */
    private static YNode at(YNode node, List<String> path) {
        YNode current = node;
        for (String step : path) {
            YNode next = current instanceof YNode.Dict dict ? dict.get(step)
                    : current instanceof YNode.Seq seq && step.matches("\\d+") && Integer.parseInt(step) < seq.items().size()
                    ? seq.items().get(Integer.parseInt(step)) : null;
            if (next == null) return current;
            current = next;
        }
        return current;
    }
}
