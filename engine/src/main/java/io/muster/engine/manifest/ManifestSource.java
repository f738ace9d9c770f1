package io.muster.engine.manifest;

import java.nio.file.Path;

/**
 * Where a compilation gets each manifest's YAML: read from its file now ({@link #FILES}, what every command does), or
 * from an earlier reading of the same unchanging file ({@link ParsedManifests}).
 */
@FunctionalInterface
public interface ManifestSource {
    ManifestSource FILES = YamlReader::read;

    /** The YAML of the manifest {@code file}, as {@link YamlReader#read} gives it. */
    YNode read(Path file) throws ManifestException;
}
