package io.muster.engine.resource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A resource that manages what is at one path (a file, a document): it provides that path, comes after
 * the nearest ancestor directory some other resource manages, and is watched at its path.
 */
public interface PathResource extends Edgeable {

    Path path();

    /** Whether it manages its path alone (a file, a document): no other resource may then manage that path; see {@link PartOfPath}. */
    default boolean exclusive() {
        return true;
    }

    @Override
    default Set<String> provides() {
        return Set.of(Edgeable.pathUid(path()));
    }

    /** Watches the path: its content, mode and owner, its deletion, its replacement by rename. */
    @Override
    default void watch(Watcher watcher) throws Exception {
        watcher.hold(watcher.watchPath(path(), watcher::changed));
        watcher.ready();
    }

    /** The nearest managed ancestor directory comes first. */
    @Override
    default List<List<String>> wants() {
        List<String> ancestors = new ArrayList<>();
        for (Path p = path().getParent(); p != null; p = p.getParent()) ancestors.add(Edgeable.pathUid(p));
        return ancestors.isEmpty() ? List.of() : List.of(ancestors);
    }
}
