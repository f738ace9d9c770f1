/**
 * Choria CCM's hierarchical data ("hiera"): {@link io.muster.engine.format.ccm.hiera.CcmHiera} resolves a document's
 * {@code data}, {@code hierarchy} and {@code overrides} against facts with CCM's semantics (levels named by templates,
 * {@code first} and {@code deep} merges), {@link io.muster.engine.format.ccm.hiera.Merging} holds CCM's two merges
 * for the front end's other uses (an {@code apply} seeing its parent's data).
 *
 * <p>May import {@code format.ccm.expr} (the templates of levels and values); nothing else of muster's.
 */
package io.muster.engine.format.ccm.hiera;
