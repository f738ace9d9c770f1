package io.muster.engine.format.ccm.expr;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** expr-lang's binary operators on evaluated operands (the short-circuiting ones are the evaluator's). */
final class Operators {
    private Operators() {}

    static Object apply(String op, Object a, Object b, int column) {
        Object result = switch (op) {
            case "==" -> Values.equal(a, b);
            case "!=" -> !Values.equal(a, b);
            case "<", ">", "<=", ">=" -> order(op, a, b);
            case "+" -> add(a, b);
            case "-" -> subtract(a, b);
            case "*" -> multiply(a, b);
            case "/" -> Values.isNumber(a) && Values.isNumber(b) ? Values.toDouble(a) / Values.toDouble(b) : null;
            case "%" -> modulo(a, b, column);
            case "**", "^" -> Values.isNumber(a) && Values.isNumber(b) ? Math.pow(Values.toDouble(a), Values.toDouble(b)) : null;
            case "in" -> in(a, b, column);
            case "contains" -> a instanceof String s && b instanceof String t ? s.contains(t) : null;
            case "startsWith" -> a instanceof String s && b instanceof String t ? s.startsWith(t) : null;
            case "endsWith" -> a instanceof String s && b instanceof String t ? s.endsWith(t) : null;
            case "matches" -> a instanceof String s && b instanceof String t ? matches(s, t, column) : null;
            case ".." -> a instanceof Long from && b instanceof Long to ? range(from, to, column) : null;
            default -> throw new CcmEvaluationException(column, "unknown operator '" + op + "'");
        };
        if (result == null) {
            throw new CcmEvaluationException(column, "invalid operation: " + Values.type(a) + " " + op + " " + Values.type(b)
                    + " (" + Values.describe(a) + " " + op + " " + Values.describe(b) + ")");
        }
        return result;
    }

    private static Object order(String op, Object a, Object b) {
        Integer c = Values.compare(a, b);
        if (c == null) return null;
        return switch (op) {
            case "<" -> c < 0;
            case ">" -> c > 0;
            case "<=" -> c <= 0;
            default -> c >= 0;
        };
    }

    private static Object add(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) return x + y;
        if (Values.isNumber(a) && Values.isNumber(b)) return Values.toDouble(a) + Values.toDouble(b);
        if (a instanceof String x && b instanceof String y) return x + y;
        if (a instanceof List<?> x && b instanceof List<?> y) {
            List<Object> out = new ArrayList<>(x);
            out.addAll(y);
            return List.copyOf(out);
        }
        if (a instanceof ZonedDateTime t && b instanceof Duration d) return t.plus(d);
        if (a instanceof Duration d && b instanceof ZonedDateTime t) return t.plus(d);
        if (a instanceof Duration x && b instanceof Duration y) return x.plus(y);
        return null;
    }

    private static Object subtract(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) return x - y;
        if (Values.isNumber(a) && Values.isNumber(b)) return Values.toDouble(a) - Values.toDouble(b);
        if (a instanceof ZonedDateTime x && b instanceof ZonedDateTime y) return Duration.between(y, x);
        if (a instanceof ZonedDateTime t && b instanceof Duration d) return t.minus(d);
        if (a instanceof Duration x && b instanceof Duration y) return x.minus(y);
        return null;
    }

    private static Object multiply(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) return x * y;
        if (Values.isNumber(a) && Values.isNumber(b)) return Values.toDouble(a) * Values.toDouble(b);
        if (a instanceof Duration d && b instanceof Long n) return d.multipliedBy(n);
        if (a instanceof Long n && b instanceof Duration d) return d.multipliedBy(n);
        return null;
    }

    private static Object modulo(Object a, Object b, int column) {
        if (!(a instanceof Long x && b instanceof Long y)) return null;
        if (y == 0) throw new CcmEvaluationException(column, "integer divide by zero");
        return x % y;
    }

    private static Object in(Object item, Object collection, int column) {
        return switch (collection) {
            case null -> false;
            case List<?> list -> list.stream().anyMatch(element -> Values.equal(item, element));
            case Map<?, ?> map -> {
                if (!(item instanceof String)) throw new CcmEvaluationException(column, "cannot use " + Values.describe(item) + " as a map key in 'in'");
                yield map.containsKey(item);
            }
            default -> null;
        };
    }

    private static boolean matches(String text, String regex, int column) {
        try {
            return Pattern.compile(regex).matcher(text).find();
        } catch (PatternSyntaxException e) {
            throw new CcmEvaluationException(column, "invalid regular expression '" + regex + "': " + e.getDescription());
        }
    }

    /** The most elements a range makes: a template has no use for more, and memory does. */
    static final long RANGE_LIMIT = 1_000_000;

    private static List<Object> range(long from, long to, int column) {
        if (to - from >= RANGE_LIMIT) throw new CcmEvaluationException(column, "range " + from + ".." + to + " is over " + RANGE_LIMIT + " elements");
        List<Object> out = new ArrayList<>();
        for (long i = from; i <= to; i++) out.add(i);
        return List.copyOf(out);
    }
}
