package io.muster.engine.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Removing a directory tree muster made for itself (a tree being built aside, a test's data directory):
 * deepest first, links removed, never followed. Not for managed files: those go through util.fs.
 */
public final class FileTrees {
    private FileTrees() {}

    /** Deletes {@code root} and everything below it; a missing one is no error. */
    public static void delete(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
