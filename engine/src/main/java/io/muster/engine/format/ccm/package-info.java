/**
 * The Choria CCM manifest format (top-level {@code ccm:}): {@link io.muster.engine.format.ccm.CcmFormat} reads
 * a CCM manifest with CCM's semantics and translates it into muster's native shape, in the CCM template dialect,
 * its resources in the order written. Each CCM type is a {@code CcmKind} (file, exec, package, service, archive,
 * scaffold, apply) that validates its properties as CCM's model does and names the native kind it becomes;
 * {@code ResourceList} reads the resource list (single and list forms, {@code defaults}); {@code CcmData} resolves
 * the data with the {@code hiera} subpackage, {@code DataRules} and {@code DataValidation} check the
 * {@code @require}/{@code @validate} directives of its comments; {@code CcmTemplates} renders with the {@code expr}
 * subpackage what CCM renders when it reads a manifest; {@code References} resolves {@code require}/{@code subscribe}
 * as CCM's manager does while the resources run (a reference to nothing run yet stops the run or fails the resource);
 * {@code JetResources} reads {@code resources_jet_file}; {@code Messages} gives pre/post messages; {@link io.muster.engine.format.ccm.CcmNames} names what the front end
 * adds, for the CLI to print the messages and choose the exit code as {@code ccm apply} does.
 *
 * <p>May import {@code format}, {@code manifest}, {@code graph} (edge reasons), {@code template}, {@code util}
 * and its own subpackages; never {@code compile} or a kind's package.
 */
package io.muster.engine.format.ccm;
