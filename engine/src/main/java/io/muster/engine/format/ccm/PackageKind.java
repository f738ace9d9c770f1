package io.muster.engine.format.ccm;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * CCM's {@code package}: muster's {@code package}. Ensure is required: {@code present}, {@code absent},
 * {@code latest} or a version; the name (and a version) may hold no shell metacharacters.
 */
final class PackageKind implements CcmKind {
    static final Pattern NAME = Pattern.compile("[a-zA-Z0-9._+:~-]+");
    static final Pattern DANGEROUS = Pattern.compile("[;&|$`()\\[\\]{}<>*?'\"\\\\!\\n\\t\\r]");

    @Override
    public String name() {
        return "package";
    }

    @Override
    public Set<String> properties() {
        return Set.of();
    }

    @Override
    public Translated translate(CcmResource r) {
        Translated out = Translated.of("package", r);
        CommonProperties.provider(r, Set.of("apt", "dnf"));
        safeName(r, "package");
        String ensure = r.string("ensure");
        if (ensure.isEmpty()) r.problem("ensure is required; expected present, absent, latest or a version");
        else if (DANGEROUS.matcher(ensure).find()) r.problem(r.markOf("ensure"), "package version/ensure contains dangerous characters: \"" + ensure + "\"");
        else out.put("ensure", ensure, r.markOf("ensure"));
        return out;
    }

    /** CCM's check of a package or service name, which it passes to a command. */
    static void safeName(CcmResource r, String what) {
        if (DANGEROUS.matcher(r.name()).find()) r.problem(what + " name contains dangerous characters: \"" + r.name() + "\"");
        else if (!NAME.matcher(r.name()).matches()) {
            r.problem(what + " name contains invalid characters: \"" + r.name() + "\" (allowed: alphanumeric, ._+:~-)");
        }
    }
}
