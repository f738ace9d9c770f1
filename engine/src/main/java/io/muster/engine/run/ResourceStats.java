package io.muster.engine.run;

import io.muster.engine.report.ResourceReport;

/**
 * One resource of a live run: its last outcome (null before its first check) and how often it was
 * checked, changed (applied, or would have been in noop) and failed, counted across graph swaps.
 */
public record ResourceStats(String id, String kind, ResourceReport last, long checks, long applies, long failures) {}
