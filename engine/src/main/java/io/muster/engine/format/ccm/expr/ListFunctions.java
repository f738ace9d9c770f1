package io.muster.engine.format.ccm.expr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * expr-lang's builtins on arrays and maps, and the numeric ones on arrays. A Go map has no order; what gives a map's
 * keys ({@code keys}, {@code values}, {@code toPairs}) gives them sorted, so that a run repeats the one before.
 */
final class ListFunctions {
    static final Set<String> NAMES = Set.of("max", "min", "mean", "median", "first", "last", "get", "take", "keys", "values",
            "toPairs", "fromPairs", "sort", "reverse", "uniq", "concat", "flatten", "join");

    private ListFunctions() {}

    static Object call(String name, Args args) {
        return switch (name) {
            case "max", "min" -> extreme(args.count(1, Integer.MAX_VALUE), name.equals("max"));
            case "sum" -> sum(numbers(args.count(1, 1).list(0), args));
            case "mean" -> {
                List<Object> numbers = numbers(args.count(1, 1).list(0), args);
                yield numbers.isEmpty() ? 0.0 : Values.toDouble(sum(numbers)) / numbers.size();
            }
            case "median" -> median(numbers(args.count(1, 1).list(0), args));
            case "count" -> args.count(1, 1).list(0).stream().filter(Boolean.TRUE::equals).count();
            case "first" -> args.count(1, 1).list(0).isEmpty() ? null : args.list(0).getFirst();
            case "last" -> args.count(1, 1).list(0).isEmpty() ? null : args.list(0).getLast();
            case "get" -> get(args.count(2, 2));
            case "take" -> {
                List<?> list = args.count(2, 2).list(0);
                yield List.copyOf(list.subList(0, (int) Math.max(0, Math.min(list.size(), args.integer(1)))));
            }
            case "keys" -> List.copyOf(sorted(args.count(1, 1).map(0)).keySet());
            case "values" -> Collections.unmodifiableList(new ArrayList<>(sorted(args.count(1, 1).map(0)).values()));
            case "toPairs" -> {
                List<Object> pairs = new ArrayList<>();
                sorted(args.count(1, 1).map(0)).forEach((k, v) -> pairs.add(java.util.Arrays.asList(k, v)));
                yield Collections.unmodifiableList(pairs);
            }
            case "fromPairs" -> fromPairs(args.count(1, 1));
            case "sort" -> sort(args.count(1, 2));
            case "reverse" -> {
                List<Object> out = new ArrayList<>(args.count(1, 1).list(0));
                Collections.reverse(out);
                yield Collections.unmodifiableList(out);
            }
            case "uniq" -> {
                List<Object> out = new ArrayList<>();
                for (Object item : args.count(1, 1).list(0)) if (out.stream().noneMatch(o -> Values.equal(o, item))) out.add(item);
                yield Collections.unmodifiableList(out);
            }
            case "concat" -> {
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < args.count(1, Integer.MAX_VALUE).size(); i++) out.addAll(args.list(i));
                yield Collections.unmodifiableList(out);
            }
            case "flatten" -> Collections.unmodifiableList(flatten(args.count(1, 1).list(0), new ArrayList<>()));
            case "join" -> {
                StringBuilder out = new StringBuilder();
                String glue = args.count(1, 2).size() == 2 ? args.string(1) : "";
                List<?> items = args.list(0);
                for (int i = 0; i < items.size(); i++) out.append(i == 0 ? "" : glue).append(GoText.sprint(items.get(i)));
                yield out.toString();
            }
            default -> throw args.error("unknown function");
        };
    }

    private static List<Object> numbers(List<?> items, Args args) {
        List<Object> out = new ArrayList<>();
        for (Object item : items) {
            Object n = Values.normalize(item);
            if (!Values.isNumber(n)) throw args.error("expected numbers, got " + Values.describe(item));
            out.add(n);
        }
        return out;
    }

    static Object sum(List<Object> numbers) {
        boolean floating = numbers.stream().anyMatch(Double.class::isInstance);
        if (!floating) return numbers.stream().mapToLong(Long.class::cast).sum();
        return numbers.stream().mapToDouble(Values::toDouble).sum();
    }

    private static Object median(List<Object> numbers) {
        if (numbers.isEmpty()) return 0.0;
        List<Double> sorted = new ArrayList<>(numbers.stream().map(Values::toDouble).toList());
        Collections.sort(sorted);
        int mid = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }

    private static Object extreme(Args args, boolean max) {
        List<?> items = Builtins.listOrArguments(args);
        if (items.isEmpty()) throw args.error("no values");
        Object best = null;
        for (Object item : items) {
            Object n = Values.normalize(item);
            if (!Values.isNumber(n)) throw args.error("expected numbers, got " + Values.describe(item));
            if (best == null || (max ? Values.compare(n, best) > 0 : Values.compare(n, best) < 0)) best = n;
        }
        return best;
    }

    private static Object get(Args args) {
        Object from = args.get(0);
        Object key = args.get(1);
        if (from instanceof Map<?, ?> map) return key instanceof String ? map.get(key) : null;
        if (from instanceof List<?> list && key instanceof Long l) {
            long i = l < 0 ? l + list.size() : l;
            return i >= 0 && i < list.size() ? list.get((int) i) : null;
        }
        return null;
    }

    private static Map<String, Object> sorted(Map<?, ?> map) {
        Map<String, Object> out = new TreeMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    private static Object fromPairs(Args args) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Object pair : args.list(0)) {
            if (!(pair instanceof List<?> p) || p.size() != 2) throw args.error("expected pairs [key, value], got " + Values.describe(pair));
            out.put(p.get(0) instanceof String s ? s : GoText.sprint(p.get(0)), p.get(1));
        }
        return Collections.unmodifiableMap(out);
    }

    private static Object sort(Args args) {
        boolean descending = order(args, 1);
        List<Object> out = new ArrayList<>(args.list(0));
        sortValues(out, descending, args);
        return Collections.unmodifiableList(out);
    }

    /** Whether argument {@code i}, when given, asks for descending order. */
    static boolean order(Args args, int i) {
        if (args.size() <= i) return false;
        String order = args.string(i);
        if (!order.equals("asc") && !order.equals("desc")) throw args.error("order must be \"asc\" or \"desc\", got '" + order + "'");
        return order.equals("desc");
    }

    static void sortValues(List<Object> values, boolean descending, Args args) {
        values.sort((a, b) -> {
            Integer c = Values.compare(a, b);
            if (c == null) throw args.error("cannot compare " + Values.describe(a) + " and " + Values.describe(b));
            return descending ? -c : c;
        });
    }

    private static List<Object> flatten(List<?> items, List<Object> out) {
        for (Object item : items) {
            if (item instanceof List<?> inner) flatten(inner, out);
            else out.add(item);
        }
        return out;
    }
}
