package io.muster.engine.compile;

import io.muster.engine.health.HealthCheck;
import io.muster.engine.health.goss.Gossfile;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.exec.Seconds;
import io.muster.engine.template.TemplateException;
import io.muster.engine.util.Json;
import io.muster.engine.util.Suggest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads a resource's {@code health_checks: [{command or goss, name, tries, try_sleep, timeout}]}, rendering
 * templates with the resource's scope. {@code tries} defaults to 1, {@code try_sleep} to 1 second,
 * {@code timeout} to 60 seconds (0: none), {@code name} to the command (to {@code goss} for goss rules).
 */
final class HealthCheckReader {
    private static final Property COMMAND = Property.optional("command", Type.STRING)
            .checkedBy(v -> v instanceof String s && s.isBlank() ? "expected a command, got an empty string" : null);
    /** goss rules, checked as goss would read them. */
    private static final Property GOSS = Property.optional("goss", Type.ANY).checkedBy(HealthCheckReader::gossProblem);
    private static final Property NAME = Property.optional("name", Type.STRING);
    private static final Property TRIES = Property.optional("tries", Type.INTEGER)
            .checkedBy(v -> Type.INTEGER.tryConvert(v) instanceof Long n && n < 1 ? "expected at least 1, got " + n : null);
    private static final Property TRY_SLEEP = Seconds.property("try_sleep");
    private static final Property TIMEOUT = Seconds.property("timeout");
    private static final Map<String, Property> KEYS = Map.of("command", COMMAND, "goss", GOSS, "name", NAME, "tries", TRIES,
            "try_sleep", TRY_SLEEP, "timeout", TIMEOUT);

    private final Problems problems;

    HealthCheckReader(Problems problems) {
        this.problems = problems;
    }

    /** The checks; {@link Invalid} when one is wrong (each problem reported). */
    List<HealthCheck> read(Declaration d) throws Invalid {
        YNode.Entry e = d.properties().get("health_checks");
        if (e == null) return List.of();
        if (!(e.value() instanceof YNode.Seq seq)) {
            problems.add(e.value().mark(), d.id() + ": health_checks: expected a list of {command: ...} entries, got " + e.value().describe());
            throw new Invalid();
        }
        List<HealthCheck> checks = new ArrayList<>();
        Invalid.Parts parts = new Invalid.Parts();
        for (YNode item : seq.items()) checks.add(parts.read(() -> check(d, item)));
        parts.throwIfAny();
        return checks;
    }

    private HealthCheck check(Declaration d, YNode item) throws Invalid {
        String where = d.id() + ": health_checks: ";
        if (!(item instanceof YNode.Dict dict)) {
            problems.add(item.mark(), where + "expected a map like {command: ..., tries: 3}, got " + item.describe());
            throw new Invalid();
        }
        boolean ok = true;
        Map<String, Object> values = new HashMap<>();
        for (YNode.Entry e : dict.entries().values()) {
            Property property = KEYS.get(e.key());
            if (property == null) {
                problems.add(e.keyMark(), where + "unknown key '" + e.key() + "'" + Suggest.hint(e.key(), KEYS.keySet())
                        + "; expected " + String.join(", ", new TreeSet<>(KEYS.keySet())));
                ok = false;
                continue;
            }
            try {
                values.put(e.key(), property.coerce(Rendering.render(e.value().plain(), d.scope())));
            } catch (TemplateException ex) {
                problems.add(e.value().mark(), where + e.key() + ": " + ex.getMessage());
                ok = false;
            } catch (IllegalArgumentException ex) {
                problems.add(e.value().mark(), where + ex.getMessage());
                ok = false;
            }
        }
        if (dict.entries().containsKey("command") == dict.entries().containsKey("goss")) {
            problems.add(dict.mark(), where + (dict.entries().containsKey("goss") ? "command and goss: one or the other, not both"
                    : "missing required key 'command' (or 'goss', for goss rules)"));
            ok = false;
        }
        if (!ok) throw new Invalid();
        String command = (String) values.getOrDefault("command", "");
        String goss = values.containsKey("goss") ? Json.compact(values.get("goss")) : "";
        return new HealthCheck((String) values.getOrDefault("name", goss.isEmpty() ? command : "goss"), command, goss,
                ((Long) values.getOrDefault("tries", 1L)).intValue(),
                duration(values.getOrDefault("try_sleep", 1.0)),
                duration(values.getOrDefault("timeout", 60.0)));
    }

    private static String gossProblem(Object rules) {
        try {
            Gossfile.of(rules);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static Duration duration(Object seconds) {
        return Seconds.duration((Double) seconds);
    }
}
