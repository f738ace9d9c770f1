package io.muster.engine.util;

import java.nio.file.Path;

/**
 * Where a compilation notes each file it reads besides its manifests (what {@code file()} reads, the bundle files
 * a graph names): what a cache of its result must read again to know it still holds.
 */
@FunctionalInterface
public interface FileReads {
    /** Notes nothing: a compilation nobody caches. */
    FileReads NONE = file -> {};

    /** {@code file} (absolute) was read, or looked for, by the compilation. */
    void read(Path file);
}
