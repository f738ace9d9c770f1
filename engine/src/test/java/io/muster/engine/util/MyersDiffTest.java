package io.muster.engine.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The edit script's promises over random pairs of line lists: it turns the old lines into the new ones, it is as
 * short as the longest common subsequence allows (checked against the textbook O(N·M) table), and the edit limit is
 * exact. Few distinct lines make many equally short scripts and long runs of equal lines, where mistakes hide.
 */
class MyersDiffTest {
    @Provide
    Arbitrary<List<String>> lines() {
        Arbitrary<List<String>> few = Arbitraries.of("a", "b", "c").list().ofMaxSize(40);
        Arbitrary<List<String>> some = Arbitraries.of("a", "b", "c", "d", "e", "f", "g", "h").list().ofMaxSize(120);
        return Arbitraries.oneOf(few, some);
    }

    @Property(tries = 3000)
    void theDeltasTurnTheOldLinesIntoTheNewWithTheFewestEdits(@ForAll("lines") List<String> before, @ForAll("lines") List<String> after) {
        List<MyersDiff.Delta> deltas = MyersDiff.deltas(before, after, before.size() + after.size()).orElseThrow();

        assertThat(applied(before, after, deltas)).isEqualTo(after);
        assertThat(edits(deltas)).isEqualTo(before.size() + after.size() - 2 * longestCommonSubsequence(before, after));
    }

    @Property(tries = 1000)
    void theLimitIsExact(@ForAll("lines") List<String> before, @ForAll("lines") List<String> after) {
        int fewest = before.size() + after.size() - 2 * longestCommonSubsequence(before, after);

        assertThat(MyersDiff.deltas(before, after, fewest)).isPresent();
        if (fewest > 0) assertThat(MyersDiff.deltas(before, after, fewest - 1)).isEmpty();
    }

    /** The old lines with each delta's deleted lines replaced by its inserted ones, checking the deltas are in order and apart. */
    private static List<String> applied(List<String> before, List<String> after, List<MyersDiff.Delta> deltas) {
        List<String> out = new ArrayList<>();
        int line = 0;
        for (MyersDiff.Delta delta : deltas) {
            assertThat(delta.from()).as("deltas in order, equal lines between them").isGreaterThan(line == 0 ? -1 : line);
            assertThat(delta.deleted() + delta.inserted()).isPositive();
            out.addAll(before.subList(line, delta.from()));
            assertThat(delta.to()).as("where the delta lands in the new lines").isEqualTo(out.size());
            out.addAll(after.subList(delta.to(), delta.to() + delta.inserted()));
            line = delta.from() + delta.deleted();
        }
        out.addAll(before.subList(line, before.size()));
        return out;
    }

    private static int edits(List<MyersDiff.Delta> deltas) {
        return deltas.stream().mapToInt(delta -> delta.deleted() + delta.inserted()).sum();
    }

    private static int longestCommonSubsequence(List<String> a, List<String> b) {
        int[][] table = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                table[i][j] = a.get(i).equals(b.get(j)) ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
            }
        }
        return table[0][0];
    }
}
