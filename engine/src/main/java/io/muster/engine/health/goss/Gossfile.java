package io.muster.engine.health.goss;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Health-check rules in goss's gossfile form ({@code file: {/etc/app.conf: {exists: true, mode: "0644"}}, port:
 * {tcp:80: {listening: true}}}), as Choria CCM's {@code goss_rules} embed them: checked when read (a resource type,
 * attribute or matcher goss does not have is an error then) and {@link #validate validated} against the system when
 * the check runs. Passes when every rule not marked {@code skip} holds, as {@code goss validate} does.
 */
public final class Gossfile {
    /** Per resource type: the attributes that assert something, then those that only say how to look. */
    private static final Map<String, List<Set<String>>> TYPES = Map.ofEntries(
            Map.entry("file", List.of(Set.of("exists", "mode", "size", "owner", "group", "uid", "gid", "filetype", "contents", "md5", "sha256",
                    "sha512", "linked-to", "linkedto"), Set.of())),
            Map.entry("package", List.of(Set.of("installed", "versions"), Set.of())),
            Map.entry("service", List.of(Set.of("enabled", "running"), Set.of())),
            Map.entry("user", List.of(Set.of("exists", "uid", "gid", "groups", "home", "shell"), Set.of())),
            Map.entry("group", List.of(Set.of("exists", "gid"), Set.of())),
            Map.entry("command", List.of(Set.of("exit-status", "stdout", "stderr"), Set.of("exec", "timeout"))),
            Map.entry("process", List.of(Set.of("running"), Set.of())),
            Map.entry("port", List.of(Set.of("listening", "ip"), Set.of())),
            Map.entry("http", List.of(Set.of("status", "body", "headers"), Set.of("timeout", "allow-insecure", "no-follow-redirects",
                    "request-headers", "method", "username", "password", "request-body"))),
            Map.entry("addr", List.of(Set.of("reachable"), Set.of("timeout"))),
            Map.entry("kernel-param", List.of(Set.of("value"), Set.of())),
            Map.entry("mount", List.of(Set.of("exists", "opts", "source", "filesystem"), Set.of())),
            Map.entry("dns", List.of(Set.of("resolvable", "addrs"), Set.of("timeout"))),
            Map.entry("interface", List.of(Set.of("exists", "addrs", "mtu"), Set.of())));
    /** Attributes of any rule that assert nothing. */
    private static final Set<String> ANY = Set.of("skip", "title", "meta");
    /** The texts a list of patterns applies to (any other value of theirs is a matcher of the whole text). */
    private static final Set<String> TEXTS = Set.of("contents", "stdout", "stderr", "body");

    /** One attribute of a rule, and what it must be. */
    record Assertion(String attribute, Matcher matcher, Patterns patterns) {
        String mismatch(Object actual) {
            return patterns != null ? patterns.mismatch(String.valueOf(actual)) : matcher.mismatch(actual);
        }
    }

    /** A resource to look at, what it must be, and how to look ({@code settings}). */
    record Rule(String type, String name, List<Assertion> assertions, Map<String, Object> settings, boolean skip) {
        @Override
        public String toString() {
            return type + " " + name;
        }
    }

    private final List<Rule> rules;

    private Gossfile(List<Rule> rules) {
        this.rules = rules;
    }

    List<Rule> rules() {
        return rules;
    }

    /**
     * The rules of {@code spec}, a gossfile as YAML reads it.
     *
     * @throws IllegalArgumentException naming what goss would not know: a resource type, an attribute, a matcher
     */
    public static Gossfile of(Object spec) {
        if (!(spec instanceof Map<?, ?> types)) throw new IllegalArgumentException("expected goss rules: a map of resource types, got " + Matcher.quote(spec));
        List<Rule> rules = new ArrayList<>();
        for (Map.Entry<?, ?> t : types.entrySet()) {
            String type = String.valueOf(t.getKey());
            List<Set<String>> attributes = TYPES.get(type);
            if (attributes == null) {
                throw new IllegalArgumentException("unknown goss resource type '" + type + "'; expected " + String.join(", ", new TreeSet<>(TYPES.keySet())));
            }
            if (!(t.getValue() instanceof Map<?, ?> named)) throw new IllegalArgumentException(type + ": expected a map of names to attributes");
            for (Map.Entry<?, ?> n : named.entrySet()) rules.add(rule(type, String.valueOf(n.getKey()), n.getValue(), attributes));
        }
        return new Gossfile(List.copyOf(rules));
    }

    private static Rule rule(String type, String name, Object body, List<Set<String>> attributes) {
        String where = type + " " + name;
        if (!(body instanceof Map<?, ?> values)) throw new IllegalArgumentException(where + ": expected a map of attributes, got " + Matcher.quote(body));
        List<Assertion> assertions = new ArrayList<>();
        Map<String, Object> settings = new LinkedHashMap<>();
        boolean skip = false;
        for (Map.Entry<?, ?> a : values.entrySet()) {
            String attribute = String.valueOf(a.getKey());
            Object value = a.getValue();
            if (attributes.get(0).contains(attribute)) {
                boolean patterns = TEXTS.contains(attribute) && value instanceof List<?>;
                assertions.add(new Assertion(attribute, patterns ? null : Matcher.of(value, where + ": " + attribute),
                        patterns ? Patterns.of((List<?>) value, where + ": " + attribute) : null));
            } else if (attributes.get(1).contains(attribute)) {
                settings.put(attribute, value);
            } else if (attribute.equals("skip")) {
                skip = Boolean.TRUE.equals(value) || "true".equals(value);
            } else if (!ANY.contains(attribute)) {
                Set<String> known = new TreeSet<>(attributes.get(0));
                known.addAll(attributes.get(1));
                throw new IllegalArgumentException(where + ": unknown attribute '" + attribute + "'; a goss " + type + " has " + String.join(", ", known));
            }
        }
        return new Rule(type, name, List.copyOf(assertions), settings, skip);
    }

    /**
     * Looks at the system and says what does not hold: empty when every rule does.
     *
     * @param timeout the most a command or a request may take (each has goss's default when shorter)
     */
    public List<String> validate(java.time.Duration timeout) throws InterruptedException {
        List<String> failures = new ArrayList<>();
        for (Rule rule : rules) {
            if (rule.skip()) continue;
            Probe probe = Probe.of(rule, timeout);
            for (Assertion a : rule.assertions()) {
                String why = probe.problem(a);
                if (why != null) failures.add(rule + ": " + a.attribute() + ": " + why);
            }
        }
        return failures;
    }

    /** How many assertions the rules make (those of skipped rules not counted). */
    public int size() {
        return rules.stream().filter(r -> !r.skip()).mapToInt(r -> r.assertions().size()).sum();
    }
}
