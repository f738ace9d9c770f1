package io.muster.engine.format;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.manifest.YNode;
import io.muster.engine.template.TemplateDialect;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A foreign manifest in muster's native shape: its top-level mapping ({@code resources:}, and {@code data:},
 * {@code hierarchy:}, {@code overrides:} when the compiler is to resolve them as muster does) with the foreign
 * file's marks; the manifest's data when the format resolves its data itself (then the compiler does not, and the
 * mapping carries no data keys); for a format whose written order is its schedule, the reason of the edge
 * the compiler adds from each of its resources to the next; the language of the templates its strings hold; and
 * the facts its templates read, when the format shows them its own way (else the host's); the environment they
 * read, when the format adds to it (CCM's {@code .env}; else muster's); and edges between its resources the
 * format makes itself (a CCM {@code subscribe}: {@link EdgeReason#REFRESH}).
 */
public record NativeManifest(YNode.Dict manifest, Optional<Map<String, Object>> resolvedData, Optional<EdgeReason> sequence,
                             TemplateDialect dialect, Optional<Map<String, Object>> facts, Optional<Map<String, String>> env,
                             List<Edge> edges) {

    /** A manifest whose data, if any, muster resolves, and whose order is no schedule. */
    public static NativeManifest of(YNode.Dict manifest) {
        return new NativeManifest(manifest, Optional.empty(), Optional.empty(), TemplateDialect.NATIVE, Optional.empty(), Optional.empty(), List.of());
    }

    /** This manifest, with exactly {@code data} as its data, resolved by the format. */
    public NativeManifest withData(Map<String, Object> data) {
        return new NativeManifest(manifest, Optional.of(data), sequence, dialect, facts, env, edges);
    }

    /** This manifest, its resources run in the order written: an edge of {@code reason} from each to the next. */
    public NativeManifest inSequence(EdgeReason reason) {
        return new NativeManifest(manifest, resolvedData, Optional.of(reason), dialect, facts, env, edges);
    }

    /** This manifest, its strings' templates written in {@code other}. */
    public NativeManifest inDialect(TemplateDialect other) {
        return new NativeManifest(manifest, resolvedData, sequence, other, facts, env, edges);
    }

    /** This manifest, its templates (those rendered at run time too) reading {@code shown} as the facts. */
    public NativeManifest withFacts(Map<String, Object> shown) {
        return new NativeManifest(manifest, resolvedData, sequence, dialect, Optional.of(shown), env, edges);
    }

    /** This manifest, its templates (those rendered at run time too) reading {@code shown} as the environment. */
    public NativeManifest withEnv(Map<String, String> shown) {
        return new NativeManifest(manifest, resolvedData, sequence, dialect, facts, Optional.of(shown), edges);
    }

    /** This manifest, with {@code more} edges between its resources, named by their ids. */
    public NativeManifest withEdges(List<Edge> more) {
        return new NativeManifest(manifest, resolvedData, sequence, dialect, facts, env, List.copyOf(more));
    }
}
