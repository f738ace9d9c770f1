package io.muster.engine.resource.exec;

import io.muster.engine.resource.Property;
import io.muster.engine.resource.Type;
import java.time.Duration;

/**
 * A duration written in seconds ({@code timeout}, {@code try_sleep}), shared by exec and health checks so
 * both read it alike: a finite number, 0 or more; anything else (negative, {@code .nan}, {@code .inf}, a
 * word) is a compile error at its line. A positive value is rounded up to whole milliseconds, so a tiny
 * one never becomes the 0 that means "none".
 */
public final class Seconds {
    private Seconds() {}

    public static Property property(String name) {
        return Property.optional(name, Type.NUMBER).checkedBy(Seconds::problem);
    }

    /** The duration of a value {@link #property} accepted; {@link Duration#ZERO} only for 0. */
    public static Duration duration(double seconds) {
        return Duration.ofMillis((long) Math.ceil(seconds * 1000));
    }

    private static String problem(Object raw) {
        Object value = Type.NUMBER.tryConvert(raw);
        if (value instanceof Double n && (n < 0 || n.isNaN() || n.isInfinite())) return "expected seconds (0 or more), got " + yaml(raw);
        return null;
    }

    /** As the manifest spells it: {@code .nan}, {@code -.inf}, {@code -1}, {@code 'NaN'}. */
    private static String yaml(Object raw) {
        if (raw instanceof String s) return "'" + s + "'";
        if (raw instanceof Double d && d.isNaN()) return ".nan";
        if (raw instanceof Double d && d.isInfinite()) return d > 0 ? ".inf" : "-.inf";
        return String.valueOf(raw);
    }
}
