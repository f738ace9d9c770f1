package io.muster.engine.compile;

import io.muster.engine.template.Scope;
import io.muster.engine.template.TemplateException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders every template string inside a value (nested lists and maps included), in its scope's dialect. */
public final class Rendering {
    private Rendering() {}

    public static Object render(Object value, Scope scope) {
        if (value instanceof String s) return scope.dialect().containsExpression(s) ? renderTemplate(s, scope) : s;
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object item : list) out.add(render(item, scope));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), render(v, scope)));
            return out;
        }
        return value;
    }

    /** The expression parser recurses once per bracket: thousands of them overflow the stack. */
    private static Object renderTemplate(String text, Scope scope) {
        try {
            return scope.dialect().render(text, scope);
        } catch (StackOverflowError e) {
            throw new TemplateException("the expression is nested too deeply (the stack overflowed)");
        }
    }
}
