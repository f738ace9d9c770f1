package io.muster.engine.graph;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a graph's manifests are: the directory of the root manifest (the bundle), bound to a directory of the
 * host that runs it; the bundle's files the graph reads when it runs (a file's {@code source}, what a run-time
 * template reads with {@code file()}), by their path relative to it, with the sha256 of their content, so they
 * can travel with the graph, each stored once; and the directories of its other manifests, where their commands
 * and health checks run, which must exist there too.
 *
 * @param root absolute
 * @param files relative path ({@code /} between names) to the hex sha256 of the content, in path order
 * @param directories the manifests' directories other than the root, relative to it, in order
 */
public record Bundle(Path root, Map<String, String> files, Set<String> directories) {
    public static final Bundle NONE = new Bundle(Path.of("/"), Map.of(), Set.of());

    public Bundle {
        if (!root.isAbsolute()) throw new IllegalArgumentException("a bundle's root must be absolute, got " + root);
        files = Collections.unmodifiableMap(new TreeMap<>(files));
        directories = Collections.unmodifiableSet(new TreeSet<>(directories));
    }

    /** The directory named {@code relative} to the root ({@code ""}: the root). */
    public Path directory(String relative) {
        return root.resolve(relative).normalize();
    }
}
