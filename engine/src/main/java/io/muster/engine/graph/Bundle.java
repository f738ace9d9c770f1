package io.muster.engine.graph;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a graph's manifests are: the directory of the root manifest (the bundle), bound to a directory of the
 * host that runs it, and the bundle's files the graph reads when it runs (a file's {@code source}, what a
 * run-time template reads with {@code file()}), by their path relative to it, with the sha256 of their content,
 * so they can travel with the graph, each stored once.
 *
 * @param root absolute
 * @param files relative path ({@code /} between names) to the hex sha256 of the content, in path order
 */
public record Bundle(Path root, Map<String, String> files) {
    public static final Bundle NONE = new Bundle(Path.of("/"), Map.of());

    public Bundle {
        if (!root.isAbsolute()) throw new IllegalArgumentException("a bundle's root must be absolute, got " + root);
        files = Collections.unmodifiableMap(new TreeMap<>(files));
    }

    /** The directory named {@code relative} to the root ({@code ""}: the root). */
    public Path directory(String relative) {
        return root.resolve(relative).normalize();
    }
}
