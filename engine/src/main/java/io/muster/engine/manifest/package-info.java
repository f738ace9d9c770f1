/**
 * Reading manifests: YAML 1.2 into {@link io.muster.engine.manifest.YNode}s that keep where each value
 * stands ({@link io.muster.engine.manifest.Mark}), within a manifest's limits, and the problems found, each
 * at its file:line:col ({@link io.muster.engine.manifest.Problems}). May import {@code util} and snakeyaml;
 * knows nothing of kinds, graphs or runs.
 */
package io.muster.engine.manifest;
