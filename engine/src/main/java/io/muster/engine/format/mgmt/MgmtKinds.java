package io.muster.engine.format.mgmt;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The mgmt kinds muster runs, by mgmt's name (compared without case, as mgmt's edges compare kinds), and why the
 * others are refused: virtual machines, containers, augeas and cloud machines are not kinds muster has.
 */
final class MgmtKinds {
    private static final Map<String, KindTranslation> KINDS = Map.ofEntries(
            Map.entry("file", new FileTranslation()),
            Map.entry("exec", new ExecTranslation()),
            Map.entry("pkg", new PackageTranslation()),
            Map.entry("svc", new ServiceTranslation()),
            Map.entry("user", new AccountTranslation("user")),
            Map.entry("group", new AccountTranslation("group")),
            Map.entry("msg", new MessageTranslation("body")),
            Map.entry("print", new MessageTranslation("msg")),
            Map.entry("noop", new SameKindTranslation("noop", List.of("comment"))),
            Map.entry("kv", new SameKindTranslation("kv", List.of("key", "value", "mapped", "skiplessthan", "skipcmpstyle"))),
            Map.entry("timer", new SameKindTranslation("timer", List.of("interval"))),
            Map.entry("hostname", new SameKindTranslation("hostname",
                    List.of("hostname", "static_hostname", "transient_hostname", "pretty_hostname"))));

    private static final Map<String, String> REFUSED = Map.ofEntries(
            Map.entry("virt", "virtual machines"), Map.entry("virt:builder", "virtual machine images"),
            Map.entry("virt:network", "virtual networks"), Map.entry("nspawn", "systemd-nspawn containers"),
            Map.entry("docker:container", "docker containers"), Map.entry("docker:image", "docker images"),
            Map.entry("augeas", "augeas lenses (use muster's line or document kinds)"),
            Map.entry("aws:ec2", "cloud machines"), Map.entry("hetzner:vm", "cloud machines"));

    private MgmtKinds() {}

    /** The translation of {@code kind}, any case. */
    static Optional<KindTranslation> of(String kind) {
        return Optional.ofNullable(KINDS.get(kind.toLowerCase(Locale.ROOT)));
    }

    /** Why {@code kind} does not run under muster. */
    static String refusal(String kind) {
        String lower = kind.toLowerCase(Locale.ROOT);
        String what = REFUSED.get(lower);
        if (what != null) return "mgmt kind '" + kind + "' is not supported by muster: it manages " + what;
        return "mgmt kind '" + kind + "' is not supported by muster; the kinds it runs are " + String.join(", ", new TreeSet<>(KINDS.keySet()));
    }
}
