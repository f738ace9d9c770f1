package io.muster.engine.format.ccm;

import io.muster.engine.format.ForeignManifest;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.YNode;
import io.muster.engine.util.Maps;
import java.util.Map;

/**
 * A CCM manifest's data: its own ({@code data}, {@code hierarchy}, {@code overrides}, by CCM's hiera), with the
 * data of the {@code apply} that includes it deep-merged over it, and external data ({@code --data}) over all.
 */
final class CcmData {
    private CcmData() {}

    static Map<String, Object> resolve(YNode.Dict top, ForeignManifest source) throws ManifestException {
        YNode data = top.get("data");
        Map<String, Object> own = data instanceof YNode.Dict d ? Maps.cast((Map<?, ?>) d.plain()) : Map.of();
        if (data != null && !(data instanceof YNode.Dict) && data.plain() != null) {
            throw new ManifestException(data.mark(), "data: expected a map, got " + data.describe());
        }
        return Maps.deepMerge(Maps.deepMerge(own, source.aggregateData()), source.externalData());
    }
}
