package io.muster.engine.format;

import io.muster.engine.manifest.YNode;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The installed {@link ManifestFormat}s; a manifest is of the one whose key is among its top-level keys. */
public final class ManifestFormats {
    private static final List<ManifestFormat> INSTALLED =
            ServiceLoader.load(ManifestFormat.class, ManifestFormat.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();

    private ManifestFormats() {}

    /** The format of {@code top}; empty for a native manifest. */
    public static Optional<ManifestFormat> of(YNode.Dict top) {
        return INSTALLED.stream().filter(f -> top.entries().containsKey(f.key())).findFirst();
    }
}
