package io.muster.engine.format.ccm.expr;

/**
 * One expression of CCM's expression language (expr-lang's, the part CCM's manifests use), parsed once and
 * evaluated any number of times: {@code Data.port + 1}, {@code lookup('facts.os') == 'debian' ? 'apache2' : 'httpd'},
 * {@code Facts.name | upper()}. Immutable and safe to share between threads.
 */
public final class CcmExpression {
    /** Expressions nest by recursion: this many brackets are more than any manifest writes, and less than the stack holds. */
    private static final int MAX_LENGTH = 64 * 1024;

    private final String source;
    private final Node root;

    private CcmExpression(String source, Node root) {
        this.source = source;
        this.root = root;
    }

    public static CcmExpression parse(String source) throws CcmSyntaxException {
        if (source.length() > MAX_LENGTH) throw new CcmSyntaxException(1, "the expression is over " + MAX_LENGTH + " characters");
        try {
            return new CcmExpression(source, Parser.parse(source));
        } catch (CcmSyntaxException e) {
            throw e.within(source, 0);
        } catch (StackOverflowError e) {
            throw new CcmSyntaxException(1, "the expression is nested too deeply");
        }
    }

    /** The value, with Go's types as Java's: int as {@code Long}, float as {@code Double}, arrays as lists, maps as maps. */
    public Object evaluate(CcmEnv env) {
        try {
            return new Evaluator(env).eval(root);
        } catch (CcmEvaluationException e) {
            throw e.within(source, 0);
        } catch (StackOverflowError e) {
            throw new CcmEvaluationException(1, "the expression recursed too deeply (a template that includes itself?)");
        }
    }

    /** Evaluated, without placing an error in the source: for an expression inside a template, which places it itself. */
    Object evaluateUnplaced(CcmEnv env) {
        return new Evaluator(env).eval(root);
    }

    /** Adds what this expression reads from outside its manifest to {@code reads}. */
    public void addReads(CcmReads reads) {
        new ReadsFinder(reads).find(root);
    }

    public String source() {
        return source;
    }

    @Override
    public String toString() {
        return source;
    }
}
