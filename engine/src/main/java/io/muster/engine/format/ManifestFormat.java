package io.muster.engine.format;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.YNode;

/**
 * A manifest format other than muster's own, recognised by the key at the top of its mapping ({@code ccm:} for
 * Choria CCM, {@code graph:} for an mgmt YAML graph). It translates the foreign manifest into muster's native
 * shape, keeping the foreign file's marks, so the compiler and every command after it treat it as any manifest.
 * Implementations are found with {@link java.util.ServiceLoader}, one line each in
 * {@code META-INF/services/io.muster.engine.format.ManifestFormat}.
 */
public interface ManifestFormat {

    /** The top-level key that marks a manifest of this format. */
    String key();

    /**
     * The native manifest for {@code top}. Problems that still let the rest be read go to
     * {@link ForeignManifest#problems()}; one that leaves nothing to read is thrown.
     */
    NativeManifest translate(YNode.Dict top, ForeignManifest source) throws ManifestException;
}
