package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Node.Call;
import java.util.Set;

/**
 * CCM's own template functions: {@code lookup(path[, default])}, {@code file(path)} (also {@code readFile}),
 * {@code template(text, 'file.templ' or 'file.jet')} and {@code jet(text or 'file.jet'[, left, right])}. In a
 * restricted environment (hiera data) only {@code lookup}.
 */
final class CcmFunctions {
    static final Set<String> NAMES = Set.of("lookup", "file", "readFile", "template", "jet");

    private CcmFunctions() {}

    static Object call(Evaluator evaluator, Call call) {
        CcmEnv env = evaluator.env();
        String name = call.name();
        if (env.isRestricted() && !name.equals("lookup")) {
            throw new CcmEvaluationException(call.column(), name + "() is not available here: hierarchy data may call lookup() only");
        }
        Args args = new Args(name, evaluator.arguments(call.arguments()), call.column());
        return switch (name) {
            case "lookup" -> lookup(env, args.count(1, 2));
            case "template" -> template(env, args.count(1, 1), call.column());
            case "jet" -> jet(env, args, call.column());
            default -> read(env, args.count(1, 1).string(0), args);
        };
    }

    /**
     * As CCM: a gjson path into {@code {facts, data, environ}}; a whole number is an int, one with a fraction a float;
     * a missing key gives the default, else (restricted: {@code ""}) an error. A nil default is no default.
     */
    private static Object lookup(CcmEnv env, Args args) {
        String path = args.string(0);
        Object fallback = args.size() == 2 ? args.get(1) : null;
        GjsonPath.Result found;
        try {
            found = GjsonPath.get(env.lookupRoot(), path);
        } catch (IllegalArgumentException e) {
            throw args.error(e.getMessage());
        }
        if (!found.exists()) {
            if (fallback != null) return fallback;
            if (env.isRestricted()) return "";
            throw args.error("missing key '" + path + "' in environment");
        }
        Object value = Values.normalize(found.value());
        // JSON writes a whole float64 without a fraction, and CCM reads a number without '.' back as an int
        if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) return (long) d.doubleValue();
        return value;
    }

    private static String read(CcmEnv env, String path, Args args) {
        try {
            return env.files().read(path);
        } catch (IllegalArgumentException e) {
            throw args.error(e.getMessage());
        }
    }

    /** A {@code .templ} file or inline text, rendered as a template with this environment; a {@code .jet} file as {@code jet()} renders it. */
    private static Object template(CcmEnv env, Args args, int column) {
        String text = args.string(0);
        if (text.endsWith(".jet")) return jet(env, args, column);
        if (text.endsWith(".templ")) text = read(env, text, args);
        try {
            return CcmTemplate.parse(text).render(env);
        } catch (CcmSyntaxException e) {
            throw args.error("in the template: " + e.getMessage());
        } catch (CcmEvaluationException e) {
            throw new CcmEvaluationException(column, "template(): in the template: " + e.getMessage());
        }
    }

    /** CCM's {@code jet(body[, left, right])}: a Jet template ({@code [[ ]]} unless given), read from a {@code .jet} file. */
    private static String jet(CcmEnv env, Args args, int column) {
        if (args.size() != 1 && args.size() != 3) throw args.error("jet requires 1 or 3 arguments");
        if (!(args.get(0) instanceof String body)) throw args.error("jet requires a string argument for template body");
        String left = "[[";
        String right = "]]";
        if (args.size() == 3) {
            if (!(args.get(1) instanceof String l)) throw args.error("jet requires a string argument for left delimiter");
            if (!(args.get(2) instanceof String r)) throw args.error("jet requires a string argument for right delimiter");
            left = l;
            right = r;
        }
        if (body.endsWith(".jet")) body = read(env, body, args);
        try {
            return JetTemplate.parse(body, left, right).render(env);
        } catch (CcmSyntaxException e) {
            throw args.error("in the template: " + e.getMessage());
        } catch (CcmEvaluationException e) {
            throw new CcmEvaluationException(column, "jet(): in the template: " + e.getMessage());
        }
    }
}
