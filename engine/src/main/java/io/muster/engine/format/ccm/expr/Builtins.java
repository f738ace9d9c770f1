package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Node.Call;
import io.muster.engine.format.ccm.expr.Node.Closure;
import java.time.ZonedDateTime;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * Function calls: the caller's functions ({@link CcmEnv#withFunction}) first, then CCM's ({@link CcmFunctions}), then
 * expr-lang's builtins: those taking a predicate ({@link Predicates}), text ({@link TextFunctions}), lists and maps
 * ({@link ListFunctions}), and the numbers, conversions, JSON and time here.
 */
final class Builtins {
    private static final Set<String> PREDICATES = Set.of("all", "any", "none", "one", "filter", "map", "count", "sum", "find",
            "findIndex", "findLast", "findLastIndex", "groupBy", "sortBy", "reduce");

    private Builtins() {}

    /** Whether {@code name}'s second argument is a predicate, parsed as a closure. */
    static boolean takesPredicate(String name) {
        return PREDICATES.contains(name);
    }

    static Object call(Evaluator evaluator, Call call) {
        String name = call.name();
        CcmFunction own = evaluator.env().function(name);
        if (own != null) {
            try {
                return own.call(evaluator.arguments(call.arguments()));
            } catch (IllegalArgumentException e) {
                throw new CcmEvaluationException(call.column(), name + "(): " + e.getMessage());
            }
        }
        if (CcmFunctions.NAMES.contains(name)) return CcmFunctions.call(evaluator, call);
        if (call.arguments().size() > 1 && call.arguments().get(1) instanceof Closure) return Predicates.call(evaluator, call);
        Args args = new Args(name, evaluator.arguments(call.arguments()), call.column());
        if (TextFunctions.NAMES.contains(name)) return TextFunctions.call(name, args);
        if (ListFunctions.NAMES.contains(name)) return ListFunctions.call(name, args);
        return switch (name) {
            case "len" -> length(args.count(1, 1));
            case "abs" -> args.count(1, 1).get(0) instanceof Long l ? (Object) Math.abs(l) : Math.abs(args.number(0));
            case "ceil" -> Math.ceil(args.count(1, 1).number(0));
            case "floor" -> Math.floor(args.count(1, 1).number(0));
            case "round" -> (double) Math.round(args.count(1, 1).number(0));
            case "int" -> convert(args.count(1, 1), true);
            case "float" -> convert(args.count(1, 1), false);
            case "string" -> GoText.sprint(args.count(1, 1).get(0));
            case "type" -> Values.type(args.count(1, 1).get(0));
            case "toJSON" -> Json.write(args.count(1, 1).get(0), args);
            case "fromJSON" -> Json.read(args.count(1, 1).string(0), args);
            case "toBase64" -> Base64.getEncoder().encodeToString(args.count(1, 1).string(0).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            case "fromBase64" -> fromBase64(args.count(1, 1));
            case "now" -> ZonedDateTime.now(evaluator.env().clock());
            case "duration" -> GoDuration.parse(args.count(1, 1).string(0), args);
            case "count", "sum" -> ListFunctions.call(name, args);
            default -> throw new CcmEvaluationException(call.column(), "unknown function '" + name + "'");
        };
    }

    private static Object length(Args args) {
        return switch (args.get(0)) {
            case String s -> (long) s.codePointCount(0, s.length());
            case List<?> l -> (long) l.size();
            case java.util.Map<?, ?> m -> (long) m.size();
            default -> throw args.wrong(0, "a string, an array or a map");
        };
    }

    /** Go's conversions: {@code int} truncates a float and reads a whole number, {@code float} any number. */
    private static Object convert(Args args, boolean toInt) {
        String type = toInt ? "an int" : "a float";
        return switch (args.get(0)) {
            case Long l -> toInt ? l : (Object) l.doubleValue();
            case Double d -> toInt ? (Object) (long) d.doubleValue() : d;
            case String s -> {
                try {
                    yield toInt ? (Object) Long.parseLong(s) : Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw args.error("invalid syntax for " + type + ": '" + s + "'");
                }
            }
            default -> throw args.wrong(0, "a number or a string");
        };
    }

    private static Object fromBase64(Args args) {
        try {
            return new String(Base64.getDecoder().decode(args.string(0)), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw args.error("not base64: " + e.getMessage());
        }
    }

    /** For builtins that take a list or, as max(1, 2), their arguments as the list. */
    static List<?> listOrArguments(Args args) {
        return args.size() == 1 && args.get(0) instanceof List<?> list ? list : args.all();
    }
}
