/**
 * Templates and expressions: the {@code ${ expr }} parts of manifest strings ({@link io.muster.engine.template.Template})
 * and {@code control} conditions, evaluated by Apache Commons JEXL in strict mode with no class access
 * ({@link io.muster.engine.template.Expressions}), over what a {@link io.muster.engine.template.Scope} lets them see:
 * {@code data}, {@code facts}, {@code env}, the {@link io.muster.engine.template.Functions} (a {@code file('…')}
 * reads a bundle file as a {@code source:} is read) and other resources' values through a
 * {@link io.muster.engine.template.Lookup}. {@link io.muster.engine.template.ScopeTable} is the part of a scope a
 * compiled graph carries to where it runs, {@link io.muster.engine.template.TemplateReads} finds what a template reads
 * from outside the manifest without evaluating it, and {@link io.muster.engine.template.Redaction} keeps sensitive
 * values out of messages. Its failures say what is wrong in words a manifest's author reads: an unknown name with
 * the closest one, a value missing this run, a value only an apply would produce (unresolvable).
 *
 * <p>A manifest's templates may be written in another {@link io.muster.engine.template.TemplateDialect}: a Choria CCM
 * manifest's are CCM's ({@code format.ccm.expr}), carried by its scope and scope table and rendered in that language,
 * at compile or at run time.
 *
 * <p>May import {@code util} (and {@code util.fs} to read files safely), JEXL and {@code format.ccm.expr} (CCM's
 * language); nothing else of muster's: the compiler, the run and the codec use it, it knows none of them, nor
 * graphs, resources or reports (a lookup is an interface the caller implements).
 */
package io.muster.engine.template;
