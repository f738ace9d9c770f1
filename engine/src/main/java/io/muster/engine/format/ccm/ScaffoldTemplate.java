package io.muster.engine.format.ccm;

import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A scaffold template of the {@code go} engine: text with tags between two delimiters, each holding one CCM
 * expression whose value is written in its place. Go's trim markers ({@code {{-}}, {@code -}}}) trim the whitespace
 * beside a tag, and Go's field syntax ({@code .Data.port}) reads as {@code Data.port}. Control structures (if,
 * range, blocks…) are not supported: such a tag is an error naming it. (The {@code jet} engine's templates are
 * Jet templates: {@link io.muster.engine.format.ccm.expr.JetTemplate}.)
 */
final class ScaffoldTemplate {
    private static final Set<String> CONTROL = Set.of("if", "else", "end", "range", "for", "with", "define", "block", "template",
            "yield", "import", "include", "extends", "return", "try", "catch");
    private static final Pattern GO_FIELD = Pattern.compile("(^|[\\s(,!])\\.(?=[A-Za-z_])");

    private final String left;
    private final String right;

    ScaffoldTemplate(String left, String right) {
        this.left = left;
        this.right = right;
    }

    /** The rendered text; {@code evaluate} gives an expression's value. */
    String render(String text, Function<String, Object> evaluate) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int open = text.indexOf(left, at);
            if (open < 0) break;
            int close = text.indexOf(right, open + left.length());
            if (close < 0) throw new IllegalArgumentException("a tag opened with '" + left + "' is not closed with '" + right + "'");
            String inner = text.substring(open + left.length(), close);
            String before = text.substring(at, open);
            if (inner.startsWith("-")) before = before.stripTrailing();
            out.append(before);
            at = close + right.length();
            if (inner.endsWith("-")) {
                while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
            }
            out.append(text(evaluate.apply(expression(inner))));
        }
        return out.append(text.substring(at)).toString();
    }

    private String expression(String inner) {
        String body = inner.strip();
        if (body.startsWith("-")) body = body.substring(1).strip();
        if (body.endsWith("-")) body = body.substring(0, body.length() - 1).strip();
        String first = body.split("[\\s(]", 2)[0];
        if (CONTROL.contains(first) || body.startsWith("/*") || body.startsWith("*")) {
            throw new IllegalArgumentException("'" + first + "' in '" + left + inner + right + "' is not supported: a scaffold tag holds one expression");
        }
        return GO_FIELD.matcher(body).replaceAll("$1");
    }

    private static String text(Object value) {
        return value == null ? "" : String.valueOf(value);
    }
}
