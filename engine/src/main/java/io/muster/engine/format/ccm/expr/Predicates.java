package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Evaluator.Frame;
import io.muster.engine.format.ccm.expr.Node.Call;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The builtins that evaluate a predicate per element: {@code filter(list, { # > 1 })}, {@code map}, {@code all}… */
final class Predicates {
    private Predicates() {}

    static Object call(Evaluator evaluator, Call call) {
        String name = call.name();
        List<Node> nodes = call.arguments();
        Object subject = Values.normalize(evaluator.eval(nodes.get(0)));
        List<Object> extra = evaluator.arguments(nodes.subList(2, nodes.size()));
        List<Object> all = new ArrayList<>();
        all.add(subject);
        all.add(null);
        all.addAll(extra);
        Args args = new Args(name, all, call.column());
        List<?> items = args.list(0);
        Node predicate = nodes.get(1);
        int max = name.equals("reduce") || name.equals("sortBy") ? 3 : 2;
        args.count(2, max);
        return switch (name) {
            case "all" -> {
                for (int i = 0; i < items.size(); i++) if (!test(evaluator, predicate, items, i, args)) yield false;
                yield true;
            }
            case "any" -> {
                for (int i = 0; i < items.size(); i++) if (test(evaluator, predicate, items, i, args)) yield true;
                yield false;
            }
            case "none" -> {
                for (int i = 0; i < items.size(); i++) if (test(evaluator, predicate, items, i, args)) yield false;
                yield true;
            }
            case "one" -> matching(evaluator, predicate, items, args).size() == 1;
            case "count" -> (long) matching(evaluator, predicate, items, args).size();
            case "filter" -> {
                List<Object> out = new ArrayList<>();
                for (int i : matching(evaluator, predicate, items, args)) out.add(items.get(i));
                yield Collections.unmodifiableList(out);
            }
            case "map" -> {
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < items.size(); i++) out.add(value(evaluator, predicate, items, i));
                yield Collections.unmodifiableList(out);
            }
            case "sum" -> {
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < items.size(); i++) {
                    Object n = Values.normalize(value(evaluator, predicate, items, i));
                    if (!Values.isNumber(n)) throw args.error("the predicate must give numbers, got " + Values.describe(n));
                    out.add(n);
                }
                yield ListFunctions.sum(out);
            }
            case "find", "findIndex" -> {
                for (int i = 0; i < items.size(); i++) {
                    if (test(evaluator, predicate, items, i, args)) yield name.equals("find") ? items.get(i) : (Object) (long) i;
                }
                yield name.equals("find") ? null : (Object) (-1L);
            }
            case "findLast", "findLastIndex" -> {
                for (int i = items.size() - 1; i >= 0; i--) {
                    if (test(evaluator, predicate, items, i, args)) yield name.equals("findLast") ? items.get(i) : (Object) (long) i;
                }
                yield name.equals("findLast") ? null : (Object) (-1L);
            }
            case "groupBy" -> {
                Map<String, List<Object>> groups = new LinkedHashMap<>();
                for (int i = 0; i < items.size(); i++) {
                    Object key = value(evaluator, predicate, items, i);
                    groups.computeIfAbsent(key instanceof String s ? s : GoText.sprint(key), k -> new ArrayList<>()).add(items.get(i));
                }
                yield Collections.unmodifiableMap(groups);
            }
            case "sortBy" -> sortBy(evaluator, predicate, items, args);
            case "reduce" -> reduce(evaluator, predicate, items, args);
            default -> throw args.error("takes no predicate");
        };
    }

    private static Object value(Evaluator evaluator, Node predicate, List<?> items, int i) {
        return evaluator.predicate(predicate, new Frame(items.get(i), i, null));
    }

    private static boolean test(Evaluator evaluator, Node predicate, List<?> items, int i, Args args) {
        Object result = value(evaluator, predicate, items, i);
        if (result instanceof Boolean b) return b;
        throw args.error("the predicate must give a bool, got " + Values.describe(result));
    }

    private static List<Integer> matching(Evaluator evaluator, Node predicate, List<?> items, Args args) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) if (test(evaluator, predicate, items, i, args)) out.add(i);
        return out;
    }

    private static Object sortBy(Evaluator evaluator, Node predicate, List<?> items, Args args) {
        boolean descending = ListFunctions.order(args, 2);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) keys.add(Values.normalize(value(evaluator, predicate, items, i)));
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) order.add(i);
        order.sort((a, b) -> {
            Integer c = Values.compare(keys.get(a), keys.get(b));
            if (c == null) throw args.error("cannot compare " + Values.describe(keys.get(a)) + " and " + Values.describe(keys.get(b)));
            return descending ? -c : c;
        });
        List<Object> out = new ArrayList<>();
        for (int i : order) out.add(items.get(i));
        return Collections.unmodifiableList(out);
    }

    /** {@code reduce(list, { #acc + # }[, initial])}: without an initial value the first element is the start. */
    private static Object reduce(Evaluator evaluator, Node predicate, List<?> items, Args args) {
        int start = 0;
        Object accumulator;
        if (args.size() == 3) {
            accumulator = args.get(2);
        } else {
            if (items.isEmpty()) throw args.error("an empty array and no initial value");
            accumulator = items.getFirst();
            start = 1;
        }
        for (int i = start; i < items.size(); i++) {
            accumulator = evaluator.predicate(predicate, new Frame(items.get(i), i, accumulator));
        }
        return accumulator;
    }
}
