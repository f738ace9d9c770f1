package io.muster.engine.resource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A resource that changes part of what is at its path (a line of a file, an archive's files in a directory): it
 * shares the path with the resource that manages the whole, provides nothing, and comes after that resource (else
 * after the nearest managed directory above). It still counts as writing there (a collected one only under
 * {@code allow.paths}).
 */
public interface PartOfPath extends PathResource {

    @Override
    default boolean exclusive() {
        return false;
    }

    @Override
    default Set<String> provides() {
        return Set.of();
    }

    @Override
    default List<List<String>> wants() {
        List<String> alternatives = new ArrayList<>();
        for (Path p = path(); p != null; p = p.getParent()) alternatives.add(Edgeable.pathUid(p));
        return List.of(alternatives);
    }
}
