/**
 * The host's facts ({@code facts.*} in templates): gathered on first use, with the overrides of {@code --fact}
 * and {@code --facts} merged over them. May import {@code util} only: facts know nothing of manifests or runs.
 */
package io.muster.engine.facts;
