package io.muster.engine.compile;

import io.muster.engine.manifest.Problems;
import io.muster.engine.resource.PathResource;
import io.muster.engine.resource.Resource;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One path, one resource: two resources managing the same path (a file and a document of it, or one
 * file under two ids in two manifests) would undo each other's work on every run, and under
 * {@code muster run} forever. Paths are compared as their kinds normalised them, without resolving symlinks.
 */
final class SamePath {
    private SamePath() {}

    static void reject(Map<String, Resource> instances, Map<String, Declaration> byId, Problems problems) {
        Map<Path, String> managedBy = new HashMap<>();
        instances.forEach((id, resource) -> {
            if (!(resource instanceof PathResource managing) || managing.path() == null || !managing.exclusive()) return;
            String first = managedBy.putIfAbsent(managing.path(), id);
            if (first == null) return;
            problems.add(byId.get(id).mark(), id + ": " + first + " (" + byId.get(first).mark() + ") already manages "
                    + managing.path() + "; a path may be managed by one resource only");
        });
    }
}
