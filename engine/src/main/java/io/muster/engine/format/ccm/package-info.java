/**
 * The Choria CCM manifest format (top-level {@code ccm:}): {@link io.muster.engine.format.ccm.CcmFormat} reads
 * a CCM manifest with CCM's semantics and translates it into muster's native shape. Each CCM type is a
 * {@code CcmKind} (file, exec, package, service, archive, apply) that validates its properties as CCM's model
 * does and names the native kind it becomes; {@code ResourceList} reads the resource list (single and list forms,
 * {@code defaults}); {@code Messages} gives pre/post messages. Templates and hiera data come from the
 * {@code expr} and {@code hiera} subpackages.
 *
 * <p>May import {@code format}, {@code manifest}, {@code graph} (edge reasons), {@code template}, {@code util}
 * and its own subpackages; never {@code compile} or a kind's package.
 */
package io.muster.engine.format.ccm;
