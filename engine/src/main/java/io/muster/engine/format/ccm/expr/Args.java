package io.muster.engine.format.ccm.expr;

import java.util.List;
import java.util.Map;

/** The evaluated arguments of a builtin call, with checks that name the function, the argument and what it got. */
final class Args {
    private final String function;
    private final List<Object> values;
    private final int column;

    Args(String function, List<Object> values, int column) {
        this.function = function;
        this.values = values;
        this.column = column;
    }

    int size() {
        return values.size();
    }

    List<Object> all() {
        return values;
    }

    /** Checks there are {@code min} to {@code max} arguments. */
    Args count(int min, int max) {
        if (values.size() < min || values.size() > max) {
            String expected = min == max ? Integer.toString(min) : max == Integer.MAX_VALUE ? "at least " + min : min + " to " + max;
            throw error("takes " + expected + " argument" + (min == 1 && max == 1 ? "" : "s") + ", got " + values.size());
        }
        return this;
    }

    Object get(int i) {
        return values.get(i);
    }

    String string(int i) {
        if (values.get(i) instanceof String s) return s;
        throw wrong(i, "a string");
    }

    long integer(int i) {
        if (values.get(i) instanceof Long l) return l;
        throw wrong(i, "an int");
    }

    double number(int i) {
        if (Values.isNumber(values.get(i))) return Values.toDouble(values.get(i));
        throw wrong(i, "a number");
    }

    List<?> list(int i) {
        if (values.get(i) instanceof List<?> l) return l;
        throw wrong(i, "an array");
    }

    Map<?, ?> map(int i) {
        if (values.get(i) instanceof Map<?, ?> m) return m;
        throw wrong(i, "a map");
    }

    CcmEvaluationException wrong(int i, String expected) {
        return error("argument " + (i + 1) + " must be " + expected + ", got " + Values.describe(values.get(i)));
    }

    CcmEvaluationException error(String reason) {
        return new CcmEvaluationException(column, function + "(): " + reason);
    }
}
