package io.muster.engine.resource;

import java.util.List;
import java.util.Map;

/**
 * What {@link Resource#checkApply} did (or, in noop, would do): the changes, the values it produced for
 * other resources to {@code lookup} (an exec's stdout), and an optional message for the report.
 */
public record Result(List<Change> changes, Map<String, Object> outputs, String message) {

    public static final Result STABLE = new Result(List.of(), Map.of(), null);

    public Result {
        changes = List.copyOf(changes);
        outputs = Map.copyOf(outputs);
    }

    public static Result changed(List<Change> changes) {
        return new Result(changes, Map.of(), null);
    }

    public boolean isChanged() {
        return !changes.isEmpty();
    }

    public Result withOutputs(Map<String, Object> values) {
        return new Result(changes, values, message);
    }

    public Result withMessage(String text) {
        return new Result(changes, outputs, text);
    }
}
