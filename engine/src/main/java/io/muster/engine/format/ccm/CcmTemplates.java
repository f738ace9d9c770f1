package io.muster.engine.format.ccm;

import io.muster.engine.format.ForeignManifest;
import io.muster.engine.manifest.Mark;
import java.util.Map;

/** CCM's templates rendered with a manifest's data, facts and environment. */
final class CcmTemplates implements Render {
    private final Map<String, Object> data;
    private final ForeignManifest source;

    CcmTemplates(Map<String, Object> data, ForeignManifest source) {
        this.data = data;
        this.source = source;
    }

    @Override
    public Object now(Object plain, Mark mark) {
        if (plain instanceof String s && (s.contains("{{") || s.contains("${"))) {
            throw new IllegalArgumentException("CCM templates are not rendered yet (" + data.size() + " data keys, " + source.file() + ")");
        }
        return plain;
    }

    @Override
    public Object evaluate(String expression, Map<String, Object> data) {
        throw new IllegalArgumentException("CCM expressions are not evaluated yet");
    }
}
