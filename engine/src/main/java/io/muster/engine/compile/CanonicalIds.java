package io.muster.engine.compile;

import io.muster.engine.resource.Kinds;
import io.muster.engine.resource.LexicalPath;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Type;

/**
 * A kind whose name is a path when no path is set (file, document) has ids holding the canonical path:
 * {@code file#//a} is {@code file#/a}, declared or referred to.
 */
final class CanonicalIds {
    private CanonicalIds() {}

    static String name(ResourceKind kind, String name) {
        return namesPath(kind) ? LexicalPath.normalize(name) : name;
    }

    /** Whether the kind's name is its path when no path is set. */
    static boolean namesPath(ResourceKind kind) {
        String nameProperty = kind.schema().nameProperty();
        return nameProperty != null && kind.schema().property(nameProperty).type() == Type.PATH;
    }

    /** A reference written {@code kind#name}, canonical; as written when it names no kind. */
    static String id(String reference, Kinds kinds) {
        int hash = reference.indexOf('#');
        ResourceKind kind = hash < 0 ? null : kinds.get(reference.substring(0, hash));
        return kind == null ? reference : kind.name() + "#" + name(kind, reference.substring(hash + 1));
    }
}
