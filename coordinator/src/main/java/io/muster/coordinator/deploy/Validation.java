package io.muster.coordinator.deploy;

import io.muster.engine.compile.CompileOptions;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.facts.Facts;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import java.util.List;
import java.util.Map;

/**
 * A bundle's root manifest is compiled before anything is published, as {@code muster validate} would on
 * this host but with no environment (a fleet graph never reads the deploying host's environment): a manifest
 * that does not parse or compile is refused with every problem at its file:line:col. Facts are this host's,
 * so a manifest whose compile depends on another host's facts can still fail there; that host then reports
 * the error in {@code muster status} and keeps its previous graph.
 */
public final class Validation {
    private Validation() {}

    /** The problems of {@code bundle}'s root manifest, each as FILE:LINE:COL: message; none when it compiles. */
    public static List<String> problems(Bundle bundle) {
        CompileOptions options = new CompileOptions(Facts.of(Map.of()), Map.of(), Map.of());
        try {
            new ManifestCompiler(options).compile(bundle.root().resolve(bundle.manifest()));
            return List.of();
        } catch (ManifestException e) {
            return e.problems().stream().map(Problem::toString).toList();
        }
    }
}
