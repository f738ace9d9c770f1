package io.muster.engine.format.ccm;

/** CCM's {@code subscribe} ({@code exec}, {@code service}): {@code type#name} references, muster's {@code subscribe}. */
final class Subscriptions {
    private Subscriptions() {}

    static void translate(CcmResource r, Translated out) {
        var subscribe = r.strings("subscribe");
        for (String reference : subscribe) {
            if (!CommonProperties.validReference(reference)) r.problem(r.markOf("subscribe"), "invalid subscribe format " + reference);
        }
        if (!subscribe.isEmpty()) out.put("subscribe", subscribe, r.markOf("subscribe"));
    }
}
