package io.muster.engine.run;

import io.muster.engine.report.ResourceReport;
import java.util.List;

/**
 * One resource of a live run: its last outcome (null before its first check) and how often it was
 * checked, changed (applied, or would have been in noop) and failed, counted across graph swaps; and the
 * resources autogroup merged into it.
 */
public record ResourceStats(String id, String kind, List<String> grouped, ResourceReport last, long checks, long applies,
                            long failures) {}
