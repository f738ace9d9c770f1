package io.muster.engine.template;

import java.util.List;
import java.util.Set;
import org.apache.commons.jexl3.JexlBuilder;
import org.apache.commons.jexl3.JexlContext;
import org.apache.commons.jexl3.JexlEngine;
import org.apache.commons.jexl3.JexlException;
import org.apache.commons.jexl3.JexlExpression;
import org.apache.commons.jexl3.MapContext;
import org.apache.commons.jexl3.introspection.JexlPermissions;

/**
 * Expressions in templates and {@code control} conditions, evaluated by Apache Commons JEXL in strict
 * mode with restricted permissions: no class access, no side effects beyond {@link Functions}.
 */
public final class Expressions {
    private Expressions() {}

    /** Built on first use: manifests without templates never pay for the expression engine. */
    private static final class Holder {
        static final JexlEngine JEXL = new JexlBuilder()
                .strict(true)
                .safe(false)
                .silent(false)
                .debug(false)
                .cache(512)
                .permissions(JexlPermissions.RESTRICTED.compose("io.muster.engine.template.*"))
                .create();
    }

    /** Parses without evaluating, so syntax errors surface at compile time. */
    public static JexlExpression parse(String source) {
        try {
            return Holder.JEXL.createExpression(source);
        } catch (JexlException e) {
            throw new TemplateException("syntax error in expression '" + source.strip() + "'" + detail(e));
        }
    }

    /**
     * The variables {@code source} reads, each as the path it is read by ({@code facts.os.family} is
     * {@code [facts, os, family]}; {@code facts[name]} only {@code [facts]}); null when it does not parse.
     */
    static Set<List<String>> variables(String source) {
        try {
            return Holder.JEXL.createScript(source).getVariables();
        } catch (JexlException e) {
            return null;
        }
    }

    public static Object evaluate(JexlExpression expression, Scope scope) {
        try {
            return expression.evaluate(new ScopeContext(scope));
        } catch (JexlException e) {
            RuntimeException cause = muster(e);
            if (cause != null) throw cause;
            if (e instanceof JexlException.Variable v) {
                throw new UnknownNameException(v.getVariable(), Scope.ROOTS);
            }
            if (e instanceof JexlException.Method m) {
                throw new UnknownNameException("unknown function or wrong arguments: '" + m.getMethod() + "'");
            }
            throw new TemplateException("cannot evaluate '" + expression.getSourceText().strip() + "'" + detail(e));
        }
    }

    /** Our own exceptions (unknown name, unresolvable value) arrive wrapped; unwrap them whole. */
    private static RuntimeException muster(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TemplateException || t instanceof UnresolvableException) return (RuntimeException) t;
        }
        return null;
    }

    private static String detail(JexlException e) {
        String message = e.getMessage();
        int at = message == null ? -1 : message.lastIndexOf(' ');
        String core = message == null ? "" : message.replaceFirst("^[^ ]*@[0-9:]+ ", "");
        return core.isBlank() || at < 0 ? "" : ": " + core;
    }

    /** Variables are the scope's roots; unprefixed function calls go to a {@link Functions} bound to it. */
    private static final class ScopeContext extends MapContext implements JexlContext.NamespaceResolver {
        private final Functions functions;

        ScopeContext(Scope scope) {
            for (String root : Scope.ROOTS) set(root, StrictMap.wrap(root, scope.root(root)));
            this.functions = new Functions(scope);
        }

        @Override
        public Object resolveNamespace(String name) {
            return name == null ? functions : null;
        }
    }
}
