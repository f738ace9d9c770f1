package io.muster.engine.resource;

import java.util.List;
import java.util.Set;

/**
 * A resource that takes part in automatic edges: it names what it provides ({@code path:/etc}) and what
 * it would like to come after. Each want is a list of alternatives tried in order; the first one that some
 * other resource provides becomes an edge (a file wants its parent, else its grandparent, …). A want of a whole tree
 * ({@link #wantsTrees()}) makes an edge from every provider in it.
 */
public interface Edgeable extends Resource {

    Set<String> provides();

    List<List<String>> wants();

    /**
     * Whole trees this resource comes after: for each uid, every resource that provides it or a uid under it
     * ({@code path:/etc/nginx} takes in {@code path:/etc/nginx/sites/default}, not {@code path:/etc/nginx2}). A
     * service comes after every managed file of its configuration directory this way.
     */
    default Set<String> wantsTrees() {
        return Set.of();
    }

    /** The uid a path-managing resource provides, shared so that kinds agree on the form. */
    static String pathUid(java.nio.file.Path path) {
        return "path:" + path.normalize();
    }
}
