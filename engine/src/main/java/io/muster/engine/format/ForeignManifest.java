package io.muster.engine.format;

import io.muster.engine.manifest.Problems;
import io.muster.engine.resource.Kinds;
import io.muster.engine.util.FileReads;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a {@link ManifestFormat} may read besides the manifest's tree: its file (absolute), whether an aggregate
 * ({@code apply}) includes it (false for the manifest given), the host's facts and environment, the data the
 * {@code apply} that includes it passes (empty for the manifest given), the external data ({@code --data}), the
 * resource kinds installed, where to report problems, and where to note each other file the format reads or looks for
 * (a CCM {@code .env}): the compiled-graph cache must know it, or an edit of it would leave a stale graph.
 */
public record ForeignManifest(Path file, boolean included, Map<String, ?> facts, Map<String, String> env,
                              Map<String, Object> aggregateData, Map<String, Object> externalData, Kinds kinds, Problems problems,
                              FileReads reads) {}
