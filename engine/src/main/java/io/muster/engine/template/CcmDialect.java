package io.muster.engine.template;

import io.muster.engine.format.ccm.expr.CcmEnv;
import io.muster.engine.format.ccm.expr.CcmEvaluationException;
import io.muster.engine.format.ccm.expr.CcmFiles;
import io.muster.engine.format.ccm.expr.CcmReads;
import io.muster.engine.format.ccm.expr.CcmSyntaxException;
import io.muster.engine.format.ccm.expr.CcmTemplate;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CCM's templates ({@link CcmTemplate}) in a muster scope: {@code Data}, {@code Facts} and {@code Environ} are the
 * scope's data, facts and environment, {@code file()} reads as muster's {@link Functions#file} does (relative to the
 * manifest's directory, noted for the bundle). A string renders as CCM renders a resource's string field: as text.
 */
final class CcmDialect {
    /** CCM's {@code template:"deferred"} fields, by kind: rendered after the resource's control gate, at run time. */
    private static final Map<String, Set<String>> DEFERRED = Map.of(
            "exec", Set.of("command", "cwd", "environment", "creates", "onlyif", "unless"),
            "file", Set.of("content", "source"));

    private CcmDialect() {}

    static boolean containsExpression(String text) {
        return CcmTemplate.containsExpression(text);
    }

    static CcmTemplate parse(String text) {
        try {
            return CcmTemplate.parse(text);
        } catch (CcmSyntaxException e) {
            throw new TemplateException(e.getMessage());
        }
    }

    static Object render(String text, Scope scope) {
        try {
            return parse(text).renderText(env(scope));
        } catch (CcmEvaluationException e) {
            throw new TemplateException(e.getMessage());
        }
    }

    static CcmEnv env(Scope scope) {
        Functions functions = new Functions(scope);
        CcmFiles files = path -> {
            try {
                return functions.file(path);
            } catch (TemplateException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
        };
        return CcmEnv.of(scope.data(), scope.facts(), scope.env()).withFiles(files);
    }

    static boolean deferred(String kind, String property) {
        return DEFERRED.getOrDefault(kind, Set.of()).contains(property);
    }

    /** Whether a value as written (a string, or lists and maps of them) has a CCM template part. */
    static boolean hasExpression(Object value) {
        return switch (value) {
            case String s -> containsExpression(s);
            case List<?> items -> items.stream().anyMatch(CcmDialect::hasExpression);
            case Map<?, ?> map -> map.values().stream().anyMatch(CcmDialect::hasExpression);
            case null, default -> false;
        };
    }

    /** Adds what {@code text} reads to {@code reads}, in {@link TemplateReads}' terms. */
    static void addReads(String text, TemplateReads reads) {
        CcmReads found = new CcmReads();
        parse(text).addReads(found);
        reads.addCcm(found);
    }
}
