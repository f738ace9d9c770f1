/**
 * Choria CCM's template language: {@link io.muster.engine.format.ccm.expr.CcmTemplate} finds the {@code {{ expr }}}
 * and {@code ${ expr }} parts of a string as CCM's scanner does and renders them as CCM does (a lone part keeps its
 * type); {@link io.muster.engine.format.ccm.expr.CcmExpression} is one expression of the subset of expr-lang that
 * CCM's manifests, tests and docs use, read by a lexer and a precedence-climbing parser into a syntax tree that an
 * evaluator walks with expr-lang's semantics (its operators, pipes, predicates and builtins, Go's formatting of
 * values). {@link io.muster.engine.format.ccm.expr.CcmEnv} is what an expression sees: {@code Data}, {@code Facts},
 * {@code Environ}, {@code lookup()} (gjson paths), {@code file()}, {@code template()}, {@code jet()}, {@code now()},
 * and what a caller adds. {@link io.muster.engine.format.ccm.expr.JetTemplate} is a Jet template (the statements
 * CCM's tests use, its expressions read by {@code CcmExpression}). CCM's functions that reach a NATS server
 * ({@code kvGet}, {@code registrations}) are refused by name when the expression is parsed; other unknown names
 * when it is evaluated.
 * Errors give the line and column in the text parsed ({@link io.muster.engine.format.ccm.expr.CcmSyntaxException},
 * {@link io.muster.engine.format.ccm.expr.CcmEvaluationException}).
 *
 * <p>May import {@code util} and SnakeYAML (to read JSON); nothing else of muster's: the CCM front end, the template
 * dialect of {@code template} and the hiera resolver use it.
 */
package io.muster.engine.format.ccm.expr;
