package io.muster.engine.compile;

import java.util.Collection;

/**
 * {@code kind#name.field} split at the right dot. Names may contain dots themselves
 * ({@code file#/etc/app.conf.content}), so the longest known resource id wins.
 */
public record ResourceReference(String id, String field) {

    /** Null when no known id is a prefix of {@code reference} followed by a field. */
    public static ResourceReference parse(String reference, Collection<String> ids) {
        for (int dot = reference.lastIndexOf('.'); dot > 0; dot = reference.lastIndexOf('.', dot - 1)) {
            String id = reference.substring(0, dot);
            if (ids.contains(id)) return new ResourceReference(id, reference.substring(dot + 1));
        }
        return null;
    }
}
