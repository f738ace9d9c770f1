package io.muster.engine.manifest;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each manifest of a tree that never changes, read once for many compilations of it: a coordinator compiles a
 * deploy's bundle (laid out by content, never rewritten) once per host, and parsing the same YAML for every host
 * was a third of that. {@link YNode}s are immutable, so compilations on several threads share them. A manifest that
 * does not read is not remembered: each compilation reads it again and reports its problems.
 */
public final class ParsedManifests implements ManifestSource {
    private final Map<Path, YNode> read = new ConcurrentHashMap<>();

    @Override
    public YNode read(Path file) throws ManifestException {
        Path key = file.toAbsolutePath().normalize();
        YNode known = read.get(key);
        if (known != null) return known;
        YNode parsed = YamlReader.read(file);
        YNode first = read.putIfAbsent(key, parsed);
        return first != null ? first : parsed;
    }
}
