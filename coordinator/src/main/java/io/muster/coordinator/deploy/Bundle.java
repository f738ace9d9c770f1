package io.muster.coordinator.deploy;

import java.nio.file.Path;
import java.util.List;

/**
 * What a deploy ships: the root manifest's directory with what it holds (files sorted by path).
 *
 * @param root the bundle's directory on this host
 * @param manifest the root manifest, relative to {@code root}, '/'-separated
 */
public record Bundle(Path root, String manifest, List<File> files) {
    public Bundle {
        files = List.copyOf(files);
    }

    /**
     * One file of a bundle.
     *
     * @param path relative to the bundle's root, '/'-separated
     * @param source where it is read from (a symbolic link inside the bundle: its target)
     */
    public record File(String path, Path source, String sha256, long size, boolean executable) {
        /**
         * Whether the file is a compile input only: a manifest or data file (YAML) holds every host's data, so it
         * stays with the coordinators, and a host gets it only when its graph names it.
         */
        public boolean compileOnly() {
            String name = path.toLowerCase(java.util.Locale.ROOT);
            return name.endsWith(".yaml") || name.endsWith(".yml");
        }
    }
}
