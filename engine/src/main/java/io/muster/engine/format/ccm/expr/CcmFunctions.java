package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Node.Call;
import java.util.Set;

/**
 * CCM's own template functions: {@code lookup(path[, default])}, {@code file(path)} (also {@code readFile}) and
 * {@code template(text or 'file.templ')}. In a restricted environment (hiera data) only {@code lookup}.
 */
final class CcmFunctions {
    static final Set<String> NAMES = Set.of("lookup", "file", "readFile", "template");

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

    /** A {@code .templ} file or inline text, rendered as a template with this environment; Jet files are refused. */
    private static Object template(CcmEnv env, Args args, int column) {
        String text = args.string(0);
        if (text.endsWith(".jet")) throw args.error("Jet templates ('" + text + "') are not supported by muster; rename it .templ and use {{ }} expressions");
        if (text.endsWith(".templ")) text = read(env, text, args);
        try {
            return CcmTemplate.parse(text).render(env);
        } catch (CcmSyntaxException e) {
            throw args.error("in the template: " + e.getMessage());
        } catch (CcmEvaluationException e) {
            throw new CcmEvaluationException(column, "template(): in the template: " + e.getMessage());
        }
    }
}
