package io.muster.engine.format.ccm;

import java.util.Set;

/**
 * CCM's {@code service}: muster's {@code service} (systemd). Ensure {@code running} (the default) or
 * {@code stopped}; {@code enable} left alone when unset; {@code subscribe} restarts it.
 */
final class ServiceKind implements CcmKind {
    @Override
    public String name() {
        return "service";
    }

    @Override
    public Set<String> properties() {
        return Set.of("enable", "subscribe");
    }

    @Override
    public Translated translate(CcmResource r) {
        Translated out = Translated.of("service", r);
        CommonProperties.provider(r, Set.of("systemd"));
        String ensure = Ensure.orDefault(r, "running", Set.of("running", "stopped"));
        PackageKind.safeName(r, "service");
        out.put("ensure", ensure, r.markOf("ensure"));
        if (r.has("enable")) out.put("enable", String.valueOf(r.bool("enable")), r.markOf("enable"));
        Subscriptions.translate(r, out);
        return out;
    }
}
