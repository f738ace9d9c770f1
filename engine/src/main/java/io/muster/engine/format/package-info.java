/**
 * Foreign manifest formats: the seam through which a manifest that is not muster's own (a Choria CCM manifest,
 * an mgmt YAML graph) reaches the compiler. {@link io.muster.engine.format.ManifestFormats} picks the
 * {@link io.muster.engine.format.ManifestFormat} by the manifest's top-level key; the format translates the
 * foreign tree into muster's native shape with the foreign file's marks, so every command compiles, plans and
 * runs it as any manifest. Each format lives in a subpackage ({@code ccm}, {@code mgmt}).
 *
 * <p>May import {@code manifest}, {@code graph} (edge reasons), {@code resource} (the kind registry), {@code template} and {@code util}, never {@code compile}.
 */
package io.muster.engine.format;
