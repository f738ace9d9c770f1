package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.util.Suggest;
import java.util.List;

/**
 * What CCM's manifest schema says of the data sections, which its hiera alone does not check: {@code hierarchy}
 * holds only {@code order} and {@code merge}, the merge {@code first} or {@code deep} (as written: the schema does
 * not fold case), and each {@code overrides} level is a map.
 */
final class Sections {
    private static final List<String> HIERARCHY = List.of("order", "merge");
    private static final List<String> MERGES = List.of("first", "deep");

    private Sections() {}

    static void check(YNode.Dict top, Problems problems) {
        if (top.get("hierarchy") instanceof YNode.Dict hierarchy) {
            for (YNode.Entry e : hierarchy.entries().values()) {
                if (!HIERARCHY.contains(e.key())) {
                    problems.add(e.keyMark(), "unknown key 'hierarchy." + e.key() + "'" + Suggest.hint(e.key(), HIERARCHY) + "; expected order, merge");
                }
            }
            YNode merge = hierarchy.get("merge");
            if (merge != null && !MERGES.contains(merge.plain())) {
                problems.add(merge.mark(), "hierarchy.merge: expected first or deep, got " + merge.describe());
            }
        }
        if (top.get("overrides") instanceof YNode.Dict levels) { // not a map at all: CCM's hiera says so
            for (YNode.Entry e : levels.entries().values()) {
                if (!(e.value() instanceof YNode.Dict)) {
                    problems.add(e.value().mark(), "overrides." + e.key() + ": expected a map of data, got " + e.value().describe());
                }
            }
        }
    }
}
