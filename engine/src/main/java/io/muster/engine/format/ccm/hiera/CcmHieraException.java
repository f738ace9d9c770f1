package io.muster.engine.format.ccm.hiera;

import java.util.List;

/**
 * Hierarchy data CCM would refuse: a malformed {@code hierarchy}, an unknown merge mode, a template that does not
 * parse or evaluate. {@link #path()} names where in the document (keys, and list indexes as numbers), so that a
 * caller holding the document's marks can place it in the file; the message starts with that path.
 */
public final class CcmHieraException extends Exception {
    private final List<String> path;

    CcmHieraException(List<String> path, String reason) {
        super(String.join(".", path) + ": " + reason, null, false, false);
        this.path = List.copyOf(path);
    }

    public List<String> path() {
        return path;
    }
}
