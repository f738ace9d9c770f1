package io.muster.engine.format.ccm;

import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The properties every CCM resource takes: {@code alias}, {@code require} (muster's), {@code control} (its
 * {@code if}/{@code unless} expressions, in the CCM dialect), {@code health_checks} (nagios format) become native;
 * {@code ensure} and {@code provider} each kind reads; {@code register_when_stable} is refused, as muster has no
 * service registry.
 */
final class CommonProperties {
    static final Set<String> NAMES = Set.of("alias", "ensure", "provider", "health_checks", "require", "control", "register_when_stable");
    private static final Set<String> HEALTH_CHECK = Set.of("command", "goss_rules", "name", "timeout", "tries", "try_sleep", "format");
    private static final Set<String> CONTROL = Set.of("if", "unless");
    private static final Pattern REFERENCE = Pattern.compile("[a-z]+#.+");

    private CommonProperties() {}

    static void translate(CcmResource r, Translated out) {
        String alias = r.string("alias");
        if (!alias.isEmpty()) out.put("alias", alias, r.markOf("alias"));
        List<String> require = r.strings("require");
        for (String reference : require) {
            if (!validReference(reference)) r.problem(r.markOf("require"), "require: expected references like 'type#name', got '" + reference + "'");
        }
        if (!require.isEmpty()) out.put("require", require, r.markOf("require"));
        r.entry("control").ifPresent(e -> control(r, e, out));
        r.entry("health_checks").ifPresent(e -> healthChecks(r, e, out));
        r.entry("register_when_stable").ifPresent(e -> r.problem(e.keyMark(),
                "register_when_stable is not supported: muster has no service registry to publish to"));
    }

    /** CCM's {@code type#name}, as its schema matches it: a lower-case type and a name. */
    static boolean validReference(String reference) {
        return REFERENCE.matcher(reference).matches();
    }

    /** The provider, when it is one of {@code allowed} (or unset). */
    static void provider(CcmResource r, Set<String> allowed) {
        String provider = r.string("provider");
        if (!provider.isEmpty() && !allowed.contains(provider)) {
            r.problem(r.markOf("provider"), "provider: expected " + String.join(" or ", allowed.stream().sorted().toList())
                    + ", got '" + provider + "'");
        }
    }

    private static void control(CcmResource r, YNode.Entry e, Translated out) {
        if (!(e.value() instanceof YNode.Dict dict)) {
            r.problem(e.value().mark(), "control: expected a map with if and/or unless, got " + e.value().describe());
            return;
        }
        Map<String, YNode> conditions = new LinkedHashMap<>();
        for (YNode.Entry c : dict.entries().values()) {
            if (!CONTROL.contains(c.key())) {
                r.problem(c.keyMark(), "control: unknown key '" + c.key() + "'; expected if, unless");
                continue;
            }
            Object value = r.condition(c.key(), c.value());
            if (value instanceof Boolean b) conditions.put(c.key(), Nodes.scalar(b, c.value().mark()));
            else if (value != null) r.problem(c.value().mark(), "control." + c.key() + ": expected true or false, got " + c.value().describe());
        }
        out.putNode("control", Nodes.dict(conditions, dict.mark()));
    }

    private static void healthChecks(CcmResource r, YNode.Entry e, Translated out) {
        if (!(e.value() instanceof YNode.Seq seq)) {
            r.problem(e.value().mark(), "health_checks: expected a list of checks, got " + e.value().describe());
            return;
        }
        List<YNode> checks = new ArrayList<>();
        for (YNode item : seq.items()) {
            if (!(item instanceof YNode.Dict check)) {
                r.problem(item.mark(), "health_checks: expected a map per check, got " + item.describe());
                continue;
            }
            checks.add(healthCheck(r, check));
        }
        out.putNode("health_checks", Nodes.seq(checks, seq.mark()));
    }

    /**
     * A check as CCM's model reads it: a nagios {@code command} or {@code goss_rules} (muster's {@code goss}), the
     * {@code format} agreeing, the name by default the command's last path element ({@code .} for goss rules, as Go's
     * filepath.Base names an empty command).
     */
    private static YNode healthCheck(CcmResource r, YNode.Dict check) {
        Map<String, YNode> values = new LinkedHashMap<>();
        for (YNode.Entry c : check.entries().values()) {
            switch (c.key()) {
                case "format" -> {
                    Object value = c.value().plain();
                    if (!"nagios".equals(value) && !"goss".equals(value) && !"".equals(value)) {
                        r.problem(c.value().mark(), "health_checks: format: expected nagios or goss, got " + c.value().describe());
                    }
                }
                // rendered as CCM renders them (the command when it reads the resource, goss rules before each check)
                case "goss_rules" -> rendered(r, c).ifPresent(v -> values.put("goss", v));
                case "command", "name" -> rendered(r, c).ifPresent(v -> values.put(c.key(), v));
                case "timeout", "try_sleep" -> values.put(c.key(), Nodes.scalar(duration(r, c), c.value().mark()));
                case "tries" -> values.put(c.key(), c.value());
                default -> r.problem(c.keyMark(), "health_checks: unknown key '" + c.key() + "'; expected " + String.join(", ",
                        HEALTH_CHECK.stream().sorted().toList()));
            }
        }
        String command = values.containsKey("command") ? String.valueOf(values.get("command").plain()) : "";
        boolean goss = check.entries().containsKey("goss_rules");
        String format = check.entries().containsKey("format") ? String.valueOf(check.entries().get("format").value().plain()) : "";
        String problem = !command.isEmpty() && goss ? "'command' or 'goss_rules' are mutually exclusive"
                : goss && !format.isEmpty() && !format.equals("goss") ? "'format' must be 'goss' when using 'goss_check'"
                : !command.isEmpty() && !format.isEmpty() && !format.equals("nagios") ? "'format' must be 'nagios' when using 'command'"
                : command.isEmpty() && !goss ? "'format' flag is required" : null;
        if (problem != null) r.problem(check.mark(), "health_checks: " + problem);
        if (!check.entries().containsKey("name")) values.put("name", Nodes.scalar(goBase(command), check.mark()));
        return Nodes.dict(values, check.mark());
    }

    private static Optional<YNode> rendered(CcmResource r, YNode.Entry e) {
        Object value = r.rendered("health_checks", e.value());
        return value == null ? Optional.empty() : Optional.of(Nodes.of(value, e.value().mark()));
    }

    /** Go's filepath.Base: the last element, trailing slashes dropped; "." for an empty path, "/" for slashes only. */
    static String goBase(String path) {
        String trimmed = path.replaceAll("/+$", "");
        if (path.isEmpty()) return ".";
        if (trimmed.isEmpty()) return "/";
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    private static double duration(CcmResource r, YNode.Entry e) {
        try {
            return GoDuration.seconds(String.valueOf(e.value().plain()));
        } catch (IllegalArgumentException failure) {
            r.problem(e.value().mark(), e.key() + ": " + failure.getMessage());
            return 0;
        }
    }
}
