package io.muster.engine.compile;

import io.muster.engine.template.Scope;
import io.muster.engine.template.Template;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders every template string inside a value (nested lists and maps included). */
public final class Rendering {
    private Rendering() {}

    public static Object render(Object value, Scope scope) {
        if (value instanceof String s) return Template.containsExpression(s) ? Template.parse(s).render(scope) : s;
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
}
