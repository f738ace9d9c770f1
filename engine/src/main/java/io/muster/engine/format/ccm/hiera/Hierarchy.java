package io.muster.engine.format.ccm.hiera;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A document's {@code hierarchy}: the order of its levels (templates) and the merge mode, lower-cased, {@code first} by default. */
record Hierarchy(List<String> order, String merge) {
    /** A document without a {@code hierarchy} section has this one. */
    static final Hierarchy DEFAULT = new Hierarchy(List.of("default"), "first");

    static Hierarchy of(Object section) throws CcmHieraException {
        if (!(section instanceof Map<?, ?> hierarchy)) throw new CcmHieraException(List.of("hierarchy"), "expected a map with order and merge");
        if (!(hierarchy.get("order") instanceof List<?> entries)) {
            throw new CcmHieraException(List.of("hierarchy", "order"), "hierarchy.order must be a list");
        }
        List<String> order = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            if (!(entries.get(i) instanceof String entry)) {
                throw new CcmHieraException(List.of("hierarchy", "order", Integer.toString(i)), "hierarchy.order must contain only strings");
            }
            order.add(entry);
        }
        String merge = hierarchy.get("merge") instanceof String m && !m.isEmpty() ? m.toLowerCase(Locale.ROOT) : "first";
        return new Hierarchy(List.copyOf(order), merge);
    }
}
