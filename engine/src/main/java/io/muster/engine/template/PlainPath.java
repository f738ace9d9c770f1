package io.muster.engine.template;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An expression that is only a dotted path into {@code data}, {@code facts} or {@code env} ({@code data.root},
 * {@code facts.os.family}), read without JEXL: loading and starting the expression engine costs a one-shot run
 * about 80 ms, and most templates are such paths. It reads as JEXL reads it, through the same {@link StrictMap}
 * views (so an unknown name is the same error, and whatever watches those reads sees the same ones); where the path
 * meets anything but a map (a list, a string, a null), JEXL evaluates it after all, which decides what that means.
 */
final class PlainPath {
    private static final Pattern PATH = Pattern.compile("(data|facts|env)(\\.[A-Za-z_][A-Za-z0-9_]*)+");

    /** JEXL's reserved words (and some it may reserve), which after a dot it may read otherwise: those paths go to JEXL. */
    private static final Set<String> RESERVED = Set.of("or", "and", "eq", "ne", "lt", "gt", "le", "ge", "div", "mod", "not", "null",
            "true", "false", "new", "var", "let", "const", "do", "while", "for", "if", "else", "break", "continue", "function",
            "return", "empty", "size", "NaN", "in", "import", "pragma", "this", "switch", "case", "default", "try", "catch",
            "finally", "throw", "instanceof", "typeof", "yield", "def", "delete", "void", "class");

    private final String source;
    private final List<String> path;

    private PlainPath(String source, List<String> path) {
        this.source = source;
        this.path = path;
    }

    /** The path {@code source} is, or null when it is any other expression. */
    static PlainPath of(String source) {
        String stripped = source.strip();
        if (!PATH.matcher(stripped).matches()) return null;
        List<String> path = List.of(stripped.split("\\."));
        for (String name : path) {
            if (RESERVED.contains(name)) return null;
        }
        return new PlainPath(source, path);
    }

    /** The expression as written. */
    String source() {
        return source;
    }

    /** The names along it, the root first ({@code [facts, os, family]}), as JEXL lists an expression's variables. */
    List<String> path() {
        return path;
    }

    Object read(Scope scope) {
        Object value = StrictMap.wrap(path.getFirst(), scope.root(path.getFirst()));
        for (String name : path.subList(1, path.size())) {
            if (!(value instanceof StrictMap map)) return jexl(scope);
            value = map.get(name);
        }
        return value == null ? jexl(scope) : value;
    }

    private Object jexl(Scope scope) {
        return Expressions.evaluate(Expressions.parse(source), scope);
    }
}
