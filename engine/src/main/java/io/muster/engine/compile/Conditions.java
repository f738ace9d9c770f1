package io.muster.engine.compile;

import io.muster.engine.graph.Vertex;
import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.Type;
import io.muster.engine.template.Expressions;
import io.muster.engine.template.Scope;
import io.muster.engine.template.Template;
import io.muster.engine.template.TemplateException;

/**
 * Evaluates {@code control} conditions from their source: a template, or an expression on its own. Parsing
 * again each time costs little, as the expression engine caches what it parsed.
 */
public final class Conditions {
    private Conditions() {}

    public static boolean test(Vertex.Condition condition, Scope scope) {
        String source = condition.source();
        Object value = Template.containsExpression(source)
                ? Template.parse(source).render(scope)
                : Expressions.evaluate(Expressions.parse(source), scope);
        Object bool = Type.BOOLEAN.tryConvert(value);
        if (bool == null) {
            throw new TemplateException("'" + condition.source() + "' must be true or false, got " + YNode.describeValue(value));
        }
        return (Boolean) bool;
    }

    /** Why {@code control} skips the resource, or null when it runs. */
    public static String skipReason(Vertex.Control control, Scope scope) {
        if (control.onlyIf() != null && !test(control.onlyIf(), scope)) return "control: if '" + control.onlyIf().source() + "' is false";
        if (control.unless() != null && test(control.unless(), scope)) return "control: unless '" + control.unless().source() + "' is true";
        return null;
    }
}
