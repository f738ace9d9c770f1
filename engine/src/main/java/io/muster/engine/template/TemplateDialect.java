package io.muster.engine.template;

import java.util.Optional;

/**
 * The template language of a manifest's strings: muster's own ({@link Template}, JEXL) or, for a Choria CCM
 * manifest, CCM's ({@link CcmDialect}). A manifest's {@link Scope} and {@link ScopeTable} say which, so a template
 * left for run time is rendered there in the language it was written in; a graph carries the dialect by its
 * {@link #wireName()}, empty for muster's own (absent from the encoded graph, whose bytes stay as they were).
 */
public enum TemplateDialect {
    NATIVE(""),
    CCM("ccm");

    private final String wireName;

    TemplateDialect(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The dialect a graph names, if this muster knows it. */
    public static Optional<TemplateDialect> named(String wireName) {
        for (TemplateDialect d : values()) if (d.wireName.equals(wireName)) return Optional.of(d);
        return Optional.empty();
    }

    /** Whether {@code text} has a template part, that is whether it must be rendered at all. */
    public boolean containsExpression(String text) {
        return this == NATIVE ? Template.containsExpression(text) : CcmDialect.containsExpression(text);
    }

    /** {@code text} rendered with what {@code scope} lets it see. */
    public Object render(String text, Scope scope) {
        return this == NATIVE ? Template.parse(text).render(scope) : CcmDialect.render(text, scope);
    }

    /** Parses {@code text} without rendering it: a {@link TemplateException} says what is wrong. */
    public void check(String text) {
        if (this == NATIVE) Template.parse(text);
        else CcmDialect.parse(text);
    }

    /**
     * Whether {@code kind}'s {@code property}, holding {@code value}, is rendered only when the resource runs, whatever
     * it reads: CCM renders an exec's command, cwd, environment and guards and a file's content and source then
     * (muster's own templates wait only for values produced at run time).
     */
    public boolean deferred(String kind, String property, Object value) {
        return this == CCM && CcmDialect.deferred(kind, property) && CcmDialect.hasExpression(value);
    }
}
