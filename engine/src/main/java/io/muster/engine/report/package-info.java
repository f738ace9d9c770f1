/**
 * What a run says: each resource's {@link io.muster.engine.report.ResourceReport} (built with its factory
 * methods, which check what each status carries), the whole run's {@link io.muster.engine.report.Report},
 * and their text and JSON forms. Plain values: may import {@code health}, {@code resource} (changes) and
 * {@code util}, nothing that runs.
 */
package io.muster.engine.report;
