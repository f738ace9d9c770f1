package io.muster.engine.template;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.jexl3.JexlExpression;

/**
 * A string with {@code ${ expr }} or {@code {{ expr }}} parts. A string that is exactly one expression
 * keeps the expression's type (a number, a list); otherwise the parts are joined as text. {@code $${}
 * writes a literal {@code ${}.
 */
public final class Template {
    private final List<Object> parts; // String literals, PlainPaths and JexlExpressions
    private final String source;

    private Template(String source, List<Object> parts) {
        this.source = source;
        this.parts = parts;
    }

    public static boolean containsExpression(String text) {
        return text.contains("${") || text.contains("{{");
    }

    public static Template parse(String text) {
        List<Object> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("$${", i)) {
                literal.append("${");
                i += 3;
            } else if (text.startsWith("${", i) || text.startsWith("{{", i)) {
                boolean dollar = text.charAt(i) == '$';
                int start = i + 2;
                int end = closing(text, start, dollar);
                if (end < 0) {
                    throw new TemplateException("unterminated '" + (dollar ? "${" : "{{") + "' in template '" + text + "'");
                }
                String expression = text.substring(start, end);
                if (expression.isBlank()) throw new TemplateException("empty expression in template '" + text + "'");
                if (!literal.isEmpty()) {
                    parts.add(literal.toString());
                    literal.setLength(0);
                }
                PlainPath path = PlainPath.of(expression);
                parts.add(path != null ? path : Expressions.parse(expression));
                i = end + (dollar ? 1 : 2);
            } else {
                literal.append(text.charAt(i++));
            }
        }
        if (!literal.isEmpty()) parts.add(literal.toString());
        return new Template(text, List.copyOf(parts));
    }

    /** Index of the closing brace(s), skipping quoted strings and nested braces; -1 when there is none. */
    private static int closing(String text, int from, boolean dollar) {
        int depth = 0;
        char quote = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\') i++;
                else if (c == quote) quote = 0;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                if (depth > 0) depth--;
                else if (dollar) return i;
                else if (i + 1 < text.length() && text.charAt(i + 1) == '}') return i;
            }
        }
        return -1;
    }

    /** The source of each expression in it, in order. */
    public List<String> expressions() {
        List<String> expressions = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof PlainPath path) expressions.add(path.source());
            else if (part instanceof JexlExpression e) expressions.add(e.getSourceText());
        }
        return expressions;
    }

    public Object render(Scope scope) {
        if (parts.size() == 1 && !(parts.getFirst() instanceof String)) return evaluate(parts.getFirst(), scope);
        StringBuilder out = new StringBuilder();
        for (Object part : parts) {
            if (part instanceof String literal) out.append(literal);
            else out.append(text(evaluate(part, scope)));
        }
        return out.toString();
    }

    private static Object evaluate(Object expression, Scope scope) {
        return expression instanceof PlainPath path ? path.read(scope) : Expressions.evaluate((JexlExpression) expression, scope);
    }

    private static String text(Object value) {
        if (value == null) return "";
        if (value instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) return Long.toString(d.longValue());
        return value.toString();
    }

    @Override
    public String toString() {
        return source;
    }
}
