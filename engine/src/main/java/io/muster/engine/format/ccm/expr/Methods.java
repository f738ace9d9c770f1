package io.muster.engine.format.ccm.expr;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;

/** The Go methods expr-lang lets an expression call on a time ({@code now().Format(…)}) or a duration. */
final class Methods {
    private Methods() {}

    static Object call(Object target, String name, List<Object> args, int column) {
        if (target instanceof ZonedDateTime t) return time(t, name, args, column);
        if (target instanceof Duration d) return duration(d, name, args, column);
        throw new CcmEvaluationException(column, "unknown method " + name + "() of " + Values.describe(target));
    }

    private static Object time(ZonedDateTime t, String name, List<Object> args, int column) {
        return switch (name) {
            case "Format" -> GoTime.format(t, string(args, name, column));
            case "String" -> GoText.sprint(t);
            case "Unix" -> t.toEpochSecond();
            case "UnixMilli" -> t.toInstant().toEpochMilli();
            case "Year" -> (long) t.getYear();
            case "Month" -> t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            case "Day" -> (long) t.getDayOfMonth();
            case "Hour" -> (long) t.getHour();
            case "Minute" -> (long) t.getMinute();
            case "Second" -> (long) t.getSecond();
            case "YearDay" -> (long) t.getDayOfYear();
            case "Weekday" -> t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            case "UTC" -> t.withZoneSameInstant(ZoneOffset.UTC);
            case "Add" -> t.plus(duration(args, name, column));
            case "Sub" -> Duration.between(time(args, name, column), t);
            case "Before" -> t.toInstant().isBefore(time(args, name, column).toInstant());
            case "After" -> t.toInstant().isAfter(time(args, name, column).toInstant());
            case "Equal" -> t.toInstant().equals(time(args, name, column).toInstant());
            default -> throw new CcmEvaluationException(column, "unknown method " + name + "() of a time; muster knows Format, Unix, UnixMilli, "
                    + "Year, Month, Day, Hour, Minute, Second, YearDay, Weekday, UTC, Add, Sub, Before, After, Equal, String");
        };
    }

    private static Object duration(Duration d, String name, List<Object> args, int column) {
        return switch (name) {
            case "Hours" -> d.toNanos() / 3.6e12;
            case "Minutes" -> d.toNanos() / 6e10;
            case "Seconds" -> d.toNanos() / 1e9;
            case "Milliseconds" -> d.toMillis();
            case "String" -> GoText.duration(d);
            default -> throw new CcmEvaluationException(column, "unknown method " + name + "() of a duration; muster knows Hours, Minutes, "
                    + "Seconds, Milliseconds, String");
        };
    }

    private static Object only(List<Object> args, String name, int column) {
        if (args.size() != 1) throw new CcmEvaluationException(column, name + "() takes 1 argument, got " + args.size());
        return args.getFirst();
    }

    private static String string(List<Object> args, String name, int column) {
        if (only(args, name, column) instanceof String s) return s;
        throw new CcmEvaluationException(column, name + "() takes a string, got " + Values.describe(args.getFirst()));
    }

    private static Duration duration(List<Object> args, String name, int column) {
        if (only(args, name, column) instanceof Duration d) return d;
        throw new CcmEvaluationException(column, name + "() takes a duration, got " + Values.describe(args.getFirst()));
    }

    private static ZonedDateTime time(List<Object> args, String name, int column) {
        if (only(args, name, column) instanceof ZonedDateTime t) return t;
        throw new CcmEvaluationException(column, name + "() takes a time, got " + Values.describe(args.getFirst()));
    }
}
