package io.muster.engine.format.ccm.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * A string with CCM template parts, {@code {{ expr }}} or {@code ${ expr }} ({@code ${{} being a literal
 * {@code $} before a {@code {{ }}} part), rendered as CCM renders it: a string that is one part and nothing else
 * but surrounding white space gives the expression's typed value; otherwise each part is written into the text as
 * Go's {@code fmt.Sprint} writes it (nil as {@code <nil>}). Parsed once, immutable, safe to share between threads.
 */
public final class CcmTemplate {
    /** A literal (expression null) or an expression starting at {@code offset} in the source. */
    private record Part(String literal, CcmExpression expression, int offset) {}

    /** A rendering as text, and whether any part gave a value other than nil or {@code ""} (CCM's "matched"). */
    public record Matched(String text, boolean matched) {}

    private final String source;
    private final List<Part> parts;
    private final boolean whole;

    private CcmTemplate(String source, List<Part> parts, boolean whole) {
        this.source = source;
        this.parts = parts;
        this.whole = whole;
    }

    /** Whether {@code text} has a template part: only such strings need parsing. */
    public static boolean containsExpression(String text) {
        return (text.contains("{{") || text.contains("${")) && !TemplateScanner.scan(text).isEmpty();
    }

    public static CcmTemplate parse(String text) throws CcmSyntaxException {
        List<TemplateScanner.Match> matches = TemplateScanner.scan(text);
        List<Part> parts = new ArrayList<>();
        int last = 0;
        for (TemplateScanner.Match m : matches) {
            if (m.start() > last) parts.add(new Part(text.substring(last, m.start()), null, last));
            String inner = text.substring(m.innerStart(), m.innerEnd());
            CcmExpression expression;
            try {
                if (inner.isEmpty()) throw new CcmSyntaxException(1, "empty expression in '" + text.substring(m.start(), m.end()) + "'");
                expression = CcmExpression.parse(inner);
            } catch (CcmSyntaxException e) {
                throw e.within(text, m.innerStart());
            }
            parts.add(new Part(null, expression, m.innerStart()));
            last = m.end();
        }
        if (last < text.length()) parts.add(new Part(text.substring(last), null, last));
        boolean whole = matches.size() == 1 && text.strip().equals(text.substring(matches.getFirst().start(), matches.getFirst().end()));
        return new CcmTemplate(text, List.copyOf(parts), whole);
    }

    /** CCM's typed rendering: the value of a lone expression, else the text. */
    public Object render(CcmEnv env) {
        if (whole) {
            Part only = parts.stream().filter(p -> p.expression() != null).findFirst().orElseThrow();
            return evaluate(only, env);
        }
        return renderMatched(env).text();
    }

    /** CCM's string rendering: every part written as text, a lone expression too. */
    public String renderText(CcmEnv env) {
        return renderMatched(env).text();
    }

    /** The text, and whether some part gave a value: a hierarchy level whose parts are all empty is skipped. */
    public Matched renderMatched(CcmEnv env) {
        boolean any = parts.stream().anyMatch(p -> p.expression() != null);
        if (!any) return new Matched(source, !source.isEmpty());
        StringBuilder out = new StringBuilder();
        boolean matched = false;
        for (Part part : parts) {
            if (part.expression() == null) {
                out.append(part.literal());
                continue;
            }
            Object value = evaluate(part, env);
            matched |= value != null && !"".equals(value);
            out.append(GoText.sprint(value));
        }
        return new Matched(out.toString(), matched);
    }

    private Object evaluate(Part part, CcmEnv env) {
        try {
            return part.expression().evaluateUnplaced(env);
        } catch (CcmEvaluationException e) {
            throw e.within(source, part.offset());
        } catch (StackOverflowError e) {
            throw new CcmEvaluationException(1, "the template recursed too deeply (a template that includes itself?)");
        }
    }

    /** Adds what this template's expressions read from outside its manifest to {@code reads}. */
    public void addReads(CcmReads reads) {
        for (Part part : parts) if (part.expression() != null) part.expression().addReads(reads);
    }

    /** The source of each expression, in order. */
    public List<String> expressions() {
        return parts.stream().filter(p -> p.expression() != null).map(p -> p.expression().source()).toList();
    }

    public String source() {
        return source;
    }

    @Override
    public String toString() {
        return source;
    }
}
