package io.muster.engine.compile;

import io.muster.engine.graph.Vertex;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.Type;
import io.muster.engine.template.Scope;
import io.muster.engine.template.TemplateException;
import io.muster.engine.util.Suggest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Reads a resource's {@code meta:} block into {@link Vertex.Meta}, reporting each bad value at its line. */
final class MetaParams {
    private static final Set<String> BOOLEANS = Set.of("noop", "rewatch", "realize", "reverse", "autoedge", "autogroup");
    private static final Set<String> NUMBERS = Set.of("retry", "delay", "poll", "limit", "burst");

    /** What the block belongs to, for errors ({@code file#/etc/motd}, {@code collect}). */
    private final String owner;
    private final Scope scope;
    private final Problems problems;
    private boolean ok = true;

    private MetaParams(String owner, Scope scope, Problems problems) {
        this.owner = owner;
        this.scope = scope;
        this.problems = problems;
    }

    /** The metaparams of {@code d}; {@link Invalid} when some are wrong (each one reported). */
    static Vertex.Meta read(Declaration d, Problems problems) throws Invalid {
        return read(d.properties().get("meta"), d.id(), d.scope(), problems);
    }

    /**
     * The metaparams of the {@code meta:} entry {@code e} (null: the defaults), rendered in {@code scope};
     * {@link Invalid} when some are wrong (each one reported, naming {@code owner}).
     */
    static Vertex.Meta read(YNode.Entry e, String owner, Scope scope, Problems problems) throws Invalid {
        if (e == null) return Vertex.Meta.DEFAULT;
        if (!(e.value() instanceof YNode.Dict dict)) {
            problems.add(e.value().mark(), owner + ": meta: expected a map of metaparams, got " + e.value().describe());
            throw new Invalid();
        }
        return new MetaParams(owner, scope, problems).read(dict);
    }

    private Vertex.Meta read(YNode.Dict dict) throws Invalid {
        Vertex.Meta m = Vertex.Meta.DEFAULT;
        boolean noop = m.noop(), rewatch = m.rewatch(), realize = m.realize(), reverse = m.reverse();
        boolean autoedge = m.autoedge(), autogroup = m.autogroup();
        int retry = m.retry(), poll = m.pollSeconds(), burst = m.burst();
        long delay = m.delayMs();
        double limit = m.limit();
        List<String> sema = m.sema();
        Vertex.Export export = m.export();
        YNode limitNode = null;
        for (YNode.Entry entry : dict.entries().values()) {
            String key = entry.key();
            Object value;
            try {
                value = Rendering.render(entry.value().plain(), scope);
            } catch (TemplateException e) {
                fail(entry, e.getMessage());
                continue;
            }
            // a null (retry: ~) reaches the checks below, which reject it: it does not mean the default
            switch (key) {
                case "noop" -> noop = bool(entry, value, noop);
                case "rewatch" -> rewatch = bool(entry, value, rewatch);
                case "realize" -> realize = bool(entry, value, realize);
                case "reverse" -> reverse = bool(entry, value, reverse);
                case "autoedge" -> autoedge = bool(entry, value, autoedge);
                case "autogroup" -> autogroup = bool(entry, value, autogroup);
                case "retry" -> retry = (int) integer(entry, value, -1, "a whole number of retries, -1 for forever", retry);
                case "delay" -> delay = integer(entry, value, 0, "milliseconds between retries (0 or more)", delay);
                case "poll" -> poll = (int) integer(entry, value, 0, "seconds between checks (0 to watch instead)", poll);
                case "burst" -> burst = (int) integer(entry, value, 0, "how many checkApply runs may happen at once (0 or more)", burst);
                case "limit" -> {
                    limit = limit(entry, value, limit);
                    limitNode = entry.value();
                }
                case "sema" -> sema = sema(entry, value, sema);
                case "export" -> export = export(entry, value);
                default -> {
                    Set<String> known = new TreeSet<>(BOOLEANS);
                    known.addAll(NUMBERS);
                    known.add("sema");
                    known.add("export");
                    String why = "unknown metaparam '" + key + "'" + Suggest.hint(key, known) + "; expected one of " + String.join(", ", known);
                    problems.add(entry.keyMark(), owner + ": meta: " + why);
                    ok = false;
                }
            }
        }
        if (ok && limitNode != null && !Double.isInfinite(limit) && burst < 1) {
            problems.add(limitNode.mark(), owner + ": meta.limit: a finite limit needs meta.burst of at least 1 (how many runs may happen at once)");
            ok = false;
        }
        if (!ok) throw new Invalid();
        // an exported resource runs on its collectors: merged into a group here, it would be applied here
        return new Vertex.Meta(noop, retry, delay, poll, limit, burst, sema, rewatch, realize, reverse, autoedge,
                autogroup && export == null, export);
    }

    /** {@code export: true|false} or {@code export: {to: [host patterns], tags: [..]}}; null when not exported. */
    private Vertex.Export export(YNode.Entry entry, Object value) {
        if (value instanceof Boolean b) return b ? new Vertex.Export(List.of(), List.of()) : null;
        if (!(value instanceof Map<?, ?> map)) {
            fail(entry, "expected true, false or a map with 'to' (host patterns) and 'tags', got " + YNode.describeValue(value));
            return null;
        }
        List<String> to = List.of(), tags = List.of();
        for (var e : map.entrySet()) {
            String key = String.valueOf(e.getKey());
            Object list = Type.STRING_LIST.tryConvert(e.getValue());
            if (list == null || !Set.of("to", "tags").contains(key)) {
                fail(entry, list == null ? key + ": expected a string or a list of strings, got " + YNode.describeValue(e.getValue())
                        : "unknown key '" + key + "'" + Suggest.hint(key, List.of("to", "tags")) + "; expected to, tags");
                return null;
            }
            List<String> strings = ((List<?>) list).stream().map(Object::toString).toList();
            if (key.equals("tags")) {
                tags = strings;
                continue;
            }
            for (String pattern : strings) {
                try {
                    HostPattern.parse(pattern);
                } catch (IllegalArgumentException ex) {
                    fail(entry, "to: '" + pattern + "' is " + ex.getMessage());
                    return null;
                }
            }
            to = strings;
        }
        return new Vertex.Export(to, tags);
    }

    private boolean bool(YNode.Entry entry, Object value, boolean fallback) {
        Object b = Type.BOOLEAN.tryConvert(value);
        if (b != null) return (Boolean) b;
        fail(entry, "expected true or false, got " + YNode.describeValue(value));
        return fallback;
    }

    private long integer(YNode.Entry entry, Object value, long min, String expected, long fallback) {
        Object n = Type.INTEGER.tryConvert(value);
        if (n == null || (Long) n < min || (Long) n > Integer.MAX_VALUE) {
            fail(entry, "expected " + expected + ", got " + YNode.describeValue(value));
            return fallback;
        }
        return (Long) n;
    }

    private double limit(YNode.Entry entry, Object value, double fallback) {
        if (value instanceof String s && Set.of("inf", "+inf", "infinity").contains(s.strip().toLowerCase(Locale.ROOT))) {
            return Double.POSITIVE_INFINITY;
        }
        Object n = Type.NUMBER.tryConvert(value);
        if (n == null || (Double) n <= 0 || ((Double) n).isNaN()) {
            fail(entry, "expected runs per second (a number above 0, or inf), got " + YNode.describeValue(value));
            return fallback;
        }
        return (Double) n;
    }

    private List<String> sema(YNode.Entry entry, Object value, List<String> fallback) {
        Object list = Type.STRING_LIST.tryConvert(value);
        if (list == null) {
            fail(entry, "expected semaphore names like 'db' or 'db:2' (a string or a list), got " + YNode.describeValue(value));
            return fallback;
        }
        List<String> out = new ArrayList<>();
        for (Object item : (List<?>) list) {
            String s = item.toString().strip();
            String problem = semaphoreProblem(s);
            if (problem != null) {
                fail(entry, problem);
                return fallback;
            }
            out.add(s);
        }
        return out;
    }

    /** {@code name} or {@code name:N}, N at least 1; null when fine. */
    static String semaphoreProblem(String spec) {
        int colon = spec.lastIndexOf(':');
        String name = colon < 0 ? spec : spec.substring(0, colon);
        if (name.isBlank()) return "expected a semaphore name like 'db' or 'db:2', got '" + spec + "'";
        if (colon < 0) return null;
        try {
            if (Integer.parseInt(spec.substring(colon + 1)) >= 1) return null;
        } catch (NumberFormatException e) {
            // reported below
        }
        return "expected a size of at least 1 after ':' in '" + spec + "'";
    }

    private void fail(YNode.Entry entry, String message) {
        problems.add(entry.value().mark(), owner + ": meta." + entry.key() + ": " + message);
        ok = false;
    }
}
