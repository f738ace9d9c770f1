package io.muster.engine.format.ccm;

import java.util.Set;

/** A kind's {@code ensure}, checked against the values CCM's model allows. */
final class Ensure {
    private Ensure() {}

    /** The ensure, which CCM requires for this kind; reported when missing or not one of {@code allowed}. */
    static String required(CcmResource r, Set<String> allowed) {
        String ensure = r.string("ensure");
        if (ensure.isEmpty()) {
            r.problem("ensure is required; expected " + choices(allowed));
            return "";
        }
        return checked(r, ensure, allowed);
    }

    /** The ensure, {@code fallback} when unset. */
    static String orDefault(CcmResource r, String fallback, Set<String> allowed) {
        String ensure = r.string("ensure");
        return checked(r, ensure.isEmpty() ? fallback : ensure, allowed);
    }

    private static String checked(CcmResource r, String ensure, Set<String> allowed) {
        if (!allowed.contains(ensure)) r.problem(r.markOf("ensure"), "invalid ensure value '" + ensure + "': expected " + choices(allowed));
        return ensure;
    }

    static String choices(Set<String> allowed) {
        return String.join(", ", allowed.stream().sorted().toList());
    }
}
