package io.muster.engine.resource.cron;

import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code cron}: one entry in {@code user}'s crontab (root's by default), named by the resource's name. The schedule
 * is five fields ({@code minute}…{@code weekday}, each {@code *} unless given; a list is joined with commas) or a
 * {@code special} one ({@code reboot}, {@code daily}…); {@code environment} is a map of variables set above the job.
 */
public final class CronKind implements ResourceKind {
    private static final List<String> FIELDS = List.of("minute", "hour", "monthday", "month", "weekday");
    private static final List<String> SPECIALS = List.of("reboot", "yearly", "annually", "monthly", "weekly", "daily", "midnight", "hourly");

    private static final Schema SCHEMA = Schema.of(null, Set.of(),
            Property.oneOf("ensure", "present", "absent"),
            Property.optional("user", Type.STRING),
            Property.optional("command", Type.STRING).checkedBy(CronKind::lineProblem),
            field("minute"), field("hour"), field("monthday"), field("month"), field("weekday"),
            Property.oneOf("special", SPECIALS.toArray(String[]::new)),
            Property.optional("environment", Type.ANY).checkedBy(CronKind::environmentProblem));

    @Override
    public String name() {
        return "cron";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public boolean runsCommands() {
        return true;
    }

    @Override
    public Resource create(TypedParams p) {
        List<String> fields = new ArrayList<>();
        List<String> set = new ArrayList<>();
        for (String field : FIELDS) {
            if (p.strings(field, null) != null) set.add(field);
            fields.add(String.join(",", p.strings(field, List.of("*"))));
        }
        CronResource.Schedule schedule = new CronResource.Schedule(String.join(" ", fields), set, p.optionalString("special").orElse(null));
        return new CronResource(p.name(), p.string("user", "root"), p.string("ensure", "present").equals("present"), schedule,
                p.optionalString("command").orElse(null), environment(p.optionalAny("environment")));
    }

    private static Property field(String name) {
        return Property.optional(name, Type.STRING_LIST).checkedBy(raw -> {
            for (Object value : raw instanceof List<?> list ? list : List.of(raw)) {
                String text = String.valueOf(value);
                if (!text.matches("[0-9A-Za-z*/,-]+")) return "expected a cron field (5, */10, 1-5, mon, *), got '" + text + "'";
            }
            return null;
        });
    }

    private static String lineProblem(Object raw) {
        String text = String.valueOf(raw);
        if (text.isBlank()) return "expected a command, got an empty string";
        return text.contains("\n") || text.contains("\r") ? "a cron command is one line: it cannot contain a newline" : null;
    }

    /** The variables as crontab lines, in the manifest's order. */
    private static List<String> environment(Optional<Object> raw) {
        List<String> lines = new ArrayList<>();
        raw.ifPresent(map -> ((Map<?, ?>) map).forEach((name, value) -> lines.add(name + "=" + value)));
        return lines;
    }

    /** A map of variables, each a crontab line {@code NAME=value}: a name cron accepts, a value of one line. */
    private static String environmentProblem(Object raw) {
        if (!(raw instanceof Map<?, ?> map)) return "expected a map of NAME: value";
        for (Map.Entry<?, ?> variable : map.entrySet()) {
            if (variable.getValue() instanceof Map<?, ?> || variable.getValue() instanceof List<?> || variable.getValue() == null) {
                return "expected a scalar value for " + variable.getKey();
            }
            if (!String.valueOf(variable.getKey()).matches("[A-Za-z_][A-Za-z0-9_]*")) {
                return "expected variable names (letters, digits, '_'), got '" + variable.getKey() + "'";
            }
            if (String.valueOf(variable.getValue()).matches("(?s).*[\\n\\r].*")) return "the value of " + variable.getKey() + " is more than one line";
        }
        return null;
    }
}
