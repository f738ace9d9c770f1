package io.muster.engine.format;

import io.muster.engine.manifest.YNode;
import java.util.Map;
import java.util.Optional;

/**
 * A foreign manifest in muster's native shape: its top-level mapping ({@code resources:}, and {@code data:},
 * {@code hierarchy:}, {@code overrides:} when the compiler is to resolve them as muster does) with the foreign
 * file's marks, and the manifest's data when the format resolves its data itself (then the compiler does not, and
 * the mapping carries no data keys).
 */
public record NativeManifest(YNode.Dict manifest, Optional<Map<String, Object>> resolvedData) {

    /** A manifest whose data, if any, muster resolves. */
    public static NativeManifest of(YNode.Dict manifest) {
        return new NativeManifest(manifest, Optional.empty());
    }

    /** A manifest whose data the format resolved: exactly {@code data}. */
    public static NativeManifest withData(YNode.Dict manifest, Map<String, Object> data) {
        return new NativeManifest(manifest, Optional.of(data));
    }
}
