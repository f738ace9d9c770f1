package io.muster.engine.resource.cron;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code cron}: one entry in {@code user}'s crontab (root's by default), named by the resource's name. The schedule
 * is five fields ({@code minute}…{@code weekday}, each {@code *} unless given; a list is joined with commas) or a
 * {@code special} one ({@code reboot}, {@code daily}…).
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
            Property.optional("environment", Type.STRING_LIST).checkedBy(CronKind::environmentProblem));

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
    public Resource create(TypedParams p) throws InvalidResourceException {
        boolean present = p.string("ensure", "present").equals("present");
        String name = p.name();
        if (name.contains("\n")) throw new InvalidResourceException("name", "a cron entry's name cannot contain a newline");
        String schedule = schedule(p);
        String command = p.optionalString("command").orElse(null);
        if (present && command == null) throw new InvalidResourceException("command", "a present cron entry needs a command");
        return new CronResource(name, p.string("user", "root"), present, schedule, command, p.strings("environment", List.of()));
    }

    private static String schedule(TypedParams p) throws InvalidResourceException {
        List<String> fields = new ArrayList<>();
        String set = null;
        for (String field : FIELDS) {
            List<String> values = p.strings(field, List.of("*"));
            if (p.strings(field, null) != null) set = field;
            fields.add(String.join(",", values));
        }
        String special = p.optionalString("special").orElse(null);
        if (special == null) return String.join(" ", fields);
        if (set != null) throw new InvalidResourceException("special", "a special schedule (@" + special + ") cannot be combined with " + set);
        return "@" + special;
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

    private static String environmentProblem(Object raw) {
        for (Object value : raw instanceof List<?> list ? list : List.of(raw)) {
            String text = String.valueOf(value);
            if (!text.matches("[A-Za-z_][A-Za-z0-9_]*=[^\\n\\r]*")) return "expected NAME=value lines, got '" + text + "'";
        }
        return null;
    }
}
