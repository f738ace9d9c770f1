package io.muster.engine.format.ccm.expr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import io.muster.engine.util.FileReads;
import java.nio.file.Path;

/**
 * How {@code file()}, {@code readFile()} and {@code template('x.templ')} read a file: relative paths from the
 * manifest's directory, absolute ones as they are. An {@link IllegalArgumentException} says why one cannot be read.
 */
@FunctionalInterface
public interface CcmFiles {
    String read(String path);

    /** No file can be read: for expressions that have no manifest directory. */
    CcmFiles NONE = path -> {
        throw new IllegalArgumentException("file('" + path + "'): no files can be read here");
    };

    /** Reads UTF-8 files, relative ones from {@code directory}. */
    static CcmFiles under(Path directory) {
        return under(directory, FileReads.NONE);
    }

    /** As {@link #under(Path)}, noting each file in {@code reads} (a compilation's inputs, which the graph cache keys on). */
    static CcmFiles under(Path directory, FileReads reads) {
        return path -> {
            Path file = directory.resolve(path).toAbsolutePath().normalize();
            reads.read(file);
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("failed to read file '" + file + "': " + e.getMessage());
            }
        };
    }
}
