package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Node.ArrayLiteral;
import io.muster.engine.format.ccm.expr.Node.Binary;
import io.muster.engine.format.ccm.expr.Node.Call;
import io.muster.engine.format.ccm.expr.Node.Chain;
import io.muster.engine.format.ccm.expr.Node.Closure;
import io.muster.engine.format.ccm.expr.Node.Conditional;
import io.muster.engine.format.ccm.expr.Node.Identifier;
import io.muster.engine.format.ccm.expr.Node.Let;
import io.muster.engine.format.ccm.expr.Node.Literal;
import io.muster.engine.format.ccm.expr.Node.MapLiteral;
import io.muster.engine.format.ccm.expr.Node.Member;
import io.muster.engine.format.ccm.expr.Node.MethodCall;
import io.muster.engine.format.ccm.expr.Node.Pointer;
import io.muster.engine.format.ccm.expr.Node.Slice;
import io.muster.engine.format.ccm.expr.Node.Unary;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Evaluates a syntax tree over a {@link CcmEnv}, with expr-lang's semantics. One instance per evaluation. */
final class Evaluator {
    /** Thrown where a {@code ?.} meets nil, caught by its chain, which is then nil. */
    private static final class NilChain extends RuntimeException {
        NilChain() {
            super(null, null, false, false);
        }
    }

    private static final NilChain NIL_CHAIN = new NilChain();

    /** The element a predicate is evaluated for: {@code #}, {@code #index} and, in reduce, {@code #acc}. */
    record Frame(Object element, long index, Object accumulator) {}

    private final CcmEnv env;
    private final Map<String, Object> lets = new HashMap<>();
    private final Deque<Frame> frames = new ArrayDeque<>();
    /** Inside the left side of {@code ??}: fetching from nil gives nil, as the operator is meant for missing values. */
    private int nilSafe;

    Evaluator(CcmEnv env) {
        this.env = env;
    }

    CcmEnv env() {
        return env;
    }

    Object eval(Node node) {
        return switch (node) {
            case Literal l -> l.value();
            case Identifier i -> identifier(i);
            case Pointer p -> pointer(p);
            case Member m -> member(m);
            case Slice s -> slice(s);
            case Chain c -> chain(c);
            case Call c -> Builtins.call(this, c);
            case MethodCall m -> Methods.call(eval(m.object()), m.name(), arguments(m.arguments()), m.column());
            case Unary u -> unary(u);
            case Binary b -> binary(b);
            case Conditional c -> Values.bool(eval(c.condition()), "the condition of '?:'", c.column()) ? eval(c.then()) : eval(c.otherwise());
            case ArrayLiteral a -> arguments(a.items());
            case MapLiteral m -> map(m);
            case Closure c -> throw new CcmEvaluationException(c.column(), "a predicate ({ … }) is only an argument of filter(), map(), all() and the like");
            case Let l -> let(l);
        };
    }

    List<Object> arguments(List<Node> nodes) {
        List<Object> values = new ArrayList<>(nodes.size());
        for (Node n : nodes) values.add(Values.normalize(eval(n)));
        return values;
    }

    /** {@code closure}'s value for one element. */
    Object predicate(Node closure, Frame frame) {
        frames.push(frame);
        try {
            return eval(closure instanceof Closure c ? c.body() : closure);
        } finally {
            frames.pop();
        }
    }

    private Object identifier(Identifier i) {
        if (lets.containsKey(i.name())) return lets.get(i.name());
        boolean[] found = new boolean[1];
        Object value = env.variable(i.name(), found);
        if (!found[0]) {
            throw new CcmEvaluationException(i.column(), "unknown name '" + i.name() + "'; expected Data, Facts, Environ, or a function call");
        }
        return value;
    }

    private Object pointer(Pointer p) {
        Frame frame = frames.peek();
        if (frame == null) throw new CcmEvaluationException(p.column(), "'#' is only meaningful inside a predicate");
        return switch (p.name()) {
            case "" -> frame.element();
            case "index" -> frame.index();
            case "acc" -> frame.accumulator();
            default -> throw new CcmEvaluationException(p.column(), "unknown pointer '#" + p.name() + "'; expected #, #index or #acc");
        };
    }

    private Object chain(Chain c) {
        try {
            return eval(c.inner());
        } catch (NilChain e) {
            return null;
        }
    }

    private Object member(Member m) {
        Object object = Values.normalize(eval(m.object()));
        Object key = Values.normalize(eval(m.key()));
        if (object == null) {
            if (m.optional()) throw NIL_CHAIN;
            if (nilSafe > 0) return null;
            throw new CcmEvaluationException(m.column(), "cannot fetch " + GoText.sprint(key) + " from nil");
        }
        return fetch(object, key, m.column());
    }

    static Object fetch(Object object, Object key, int column) {
        if (object instanceof Map<?, ?> map) {
            if (!(key instanceof String)) throw new CcmEvaluationException(column, "cannot index a map with " + Values.describe(key));
            return map.get(key);
        }
        if (object instanceof List<?> list) {
            int index = index(key, list.size(), column);
            return list.get(index);
        }
        if (object instanceof String s) {
            int[] runes = s.codePoints().toArray();
            return new String(runes, index(key, runes.length, column), 1);
        }
        throw new CcmEvaluationException(column, "cannot fetch " + GoText.sprint(key) + " from " + Values.describe(object));
    }

    private static int index(Object key, int length, int column) {
        if (!(key instanceof Long l)) throw new CcmEvaluationException(column, "an index must be an int, got " + Values.describe(key));
        long i = l < 0 ? l + length : l;
        if (i < 0 || i >= length) throw new CcmEvaluationException(column, "index out of range: " + l + " (array length is " + length + ")");
        return (int) i;
    }

    private Object slice(Slice s) {
        Object object = Values.normalize(eval(s.object()));
        int length;
        int[] runes = null;
        if (object instanceof List<?> list) {
            length = list.size();
        } else if (object instanceof String text) {
            runes = text.codePoints().toArray();
            length = runes.length;
        } else {
            throw new CcmEvaluationException(s.column(), "cannot slice " + Values.describe(object));
        }
        int from = bound(s.from(), 0, length);
        int to = Math.max(from, bound(s.to(), length, length));
        return runes != null ? new String(runes, from, to - from) : List.copyOf(((List<?>) object).subList(from, to));
    }

    private int bound(Node node, int fallback, int length) {
        if (node == null) return fallback;
        Object value = Values.normalize(eval(node));
        if (!(value instanceof Long l)) throw new CcmEvaluationException(node.column(), "a slice bound must be an int, got " + Values.describe(value));
        long i = l < 0 ? l + length : l;
        return (int) Math.max(0, Math.min(length, i));
    }

    private Object unary(Unary u) {
        Object value = Values.normalize(eval(u.operand()));
        return switch (u.operator()) {
            case "not", "!" -> !Values.bool(value, "'" + u.operator() + "'", u.column());
            case "-" -> switch (value) {
                case Long l -> -l;
                case Double d -> -d;
                default -> throw new CcmEvaluationException(u.column(), "invalid operation: -" + Values.describe(value));
            };
            default -> {
                if (!Values.isNumber(value)) throw new CcmEvaluationException(u.column(), "invalid operation: +" + Values.describe(value));
                yield value;
            }
        };
    }

    private Object binary(Binary b) {
        switch (b.operator()) {
            case "and", "&&" -> {
                return Values.bool(eval(b.left()), "'" + b.operator() + "'", b.column())
                        && Values.bool(eval(b.right()), "'" + b.operator() + "'", b.column());
            }
            case "or", "||" -> {
                return Values.bool(eval(b.left()), "'" + b.operator() + "'", b.column())
                        || Values.bool(eval(b.right()), "'" + b.operator() + "'", b.column());
            }
            case "??" -> {
                Object left;
                nilSafe++;
                try {
                    left = eval(b.left());
                } finally {
                    nilSafe--;
                }
                return left != null ? left : eval(b.right());
            }
            default -> {
                return Operators.apply(b.operator(), Values.normalize(eval(b.left())), Values.normalize(eval(b.right())), b.column());
            }
        }
    }

    private Object map(MapLiteral m) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < m.keys().size(); i++) {
            Object key = eval(m.keys().get(i));
            out.put(key instanceof String s ? s : GoText.sprint(key), eval(m.values().get(i)));
        }
        return Collections.unmodifiableMap(out);
    }

    private Object let(Let l) {
        boolean shadowed = lets.containsKey(l.name());
        Object previous = lets.get(l.name());
        lets.put(l.name(), eval(l.value()));
        try {
            return eval(l.body());
        } finally {
            if (shadowed) lets.put(l.name(), previous);
            else lets.remove(l.name());
        }
    }
}
