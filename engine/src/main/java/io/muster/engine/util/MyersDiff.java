package io.muster.engine.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A shortest edit script between two lists of lines, after E. Myers, "An O(ND) Difference Algorithm and Its
 * Variations" (1986), in its linear-space form: search for an optimal path from both corners of the edit graph at
 * once until the two searches meet on a "middle snake", then solve the two halves on either side of it the same way.
 * Time O((N+M)·D) and space O(N+M) for N and M lines and D edits; the search gives up as soon as D must exceed a
 * limit, so two versions with nothing in common cost O(limit²), not O(N·M).
 */
final class MyersDiff {
    /** Lines {@code from..from+deleted} of the old version are replaced by lines {@code to..to+inserted} of the new. */
    record Delta(int from, int deleted, int to, int inserted) {}

    /** A part of the edit graph: old lines {@code aLo..aHi} against new lines {@code bLo..bHi}. */
    private record Box(int aLo, int aHi, int bLo, int bHi) {
        int n() { return aHi - aLo; }
        int m() { return bHi - bLo; }
    }

    /** A run of equal lines from old/new line (x, y) to (u, v), on an optimal path of {@code edits} edits. */
    private record Snake(int x, int y, int u, int v, int edits) {}

    private final int[] a;
    private final int[] b;
    private final List<Delta> deltas = new ArrayList<>();

    private MyersDiff(List<String> before, List<String> after) {
        Map<String, Integer> ids = new HashMap<>();
        a = ids(before, ids);
        b = ids(after, ids);
    }

    /** The deltas turning {@code before} into {@code after} with the fewest lines deleted plus inserted, in order; empty if that takes more than {@code maxEdits}. */
    static Optional<List<Delta>> deltas(List<String> before, List<String> after, int maxEdits) {
        MyersDiff diff = new MyersDiff(before, after);
        return diff.solve(new Box(0, before.size(), 0, after.size()), maxEdits) ? Optional.of(diff.deltas) : Optional.empty();
    }

    /** Lines as numbers, equal lines equal numbers, so the search compares ints and never a long line twice. */
    private static int[] ids(List<String> lines, Map<String, Integer> ids) {
        int[] out = new int[lines.size()];
        for (int i = 0; i < out.length; i++) out[i] = ids.computeIfAbsent(lines.get(i), line -> ids.size());
        return out;
    }

    /** Adds the deltas of an optimal path through the box; false (adding nothing) if it needs more than {@code limit} edits. */
    private boolean solve(Box box, int limit) {
        int aLo = box.aLo(), aHi = box.aHi(), bLo = box.bLo(), bHi = box.bHi();
        while (aLo < aHi && bLo < bHi && a[aLo] == b[bLo]) { aLo++; bLo++; }
        while (aLo < aHi && bLo < bHi && a[aHi - 1] == b[bHi - 1]) { aHi--; bHi--; }
        Box rest = new Box(aLo, aHi, bLo, bHi);
        if (rest.n() == 0 || rest.m() == 0) {
            if (rest.n() + rest.m() > limit) return false;
            if (rest.n() + rest.m() > 0) add(new Delta(aLo, rest.n(), bLo, rest.m()));
            return true;
        }
        // Both sides are left with a first and a last line that differ, so at least two edits: each half needs fewer.
        Snake middle = middleSnake(rest, limit);
        if (middle == null) return false;
        solve(new Box(aLo, middle.x(), bLo, middle.y()), middle.edits());
        solve(new Box(middle.u(), aHi, middle.v(), bHi), middle.edits());
        return true;
    }

    /** Appends a delta, joined to the previous one when no equal line separates them. */
    private void add(Delta delta) {
        if (!deltas.isEmpty()) {
            Delta last = deltas.getLast();
            if (last.from() + last.deleted() == delta.from() && last.to() + last.inserted() == delta.to()) {
                deltas.set(deltas.size() - 1, new Delta(last.from(), last.deleted() + delta.deleted(), last.to(), last.inserted() + delta.inserted()));
                return;
            }
        }
        deltas.add(delta);
    }

    /**
     * The snake where a path of d edits from the top-left corner meets one from the bottom-right: the middle of an
     * optimal path of 2d-1 or 2d edits. Null when the paths cannot meet within {@code limit} edits.
     */
    private Snake middleSnake(Box box, int limit) {
        int rounds = Math.min((box.n() + box.m() + 1) / 2, limit - limit / 2); // rounds of 2d-1 <= limit edits
        Frontier forward = new Frontier(box, false, rounds);
        Frontier backward = new Frontier(box, true, rounds);
        // The number of edits D has the parity of n - m: when odd, a forward path of d edits meets a backward one of
        // d - 1 (D = 2d - 1), which the forward round sees; when even, the backward round sees D = 2d.
        boolean odd = ((box.n() - box.m()) & 1) != 0;
        for (int d = 0; d <= rounds; d++) {
            Snake met = forward.advance(d, backward, odd);
            if (met != null) return met;
            if (2 * d > limit) return null; // what the backward round finds has 2d edits
            met = backward.advance(d, forward, !odd);
            if (met != null) return met;
        }
        return null; // past the limit: without it the paths meet by d = ceil((n + m) / 2)
    }

    /**
     * The furthest-reaching paths from one corner of a box: for each diagonal k (x - y, counted from that corner),
     * the largest x a path of the edits made so far reaches, -1 where none has.
     */
    private final class Frontier {
        private final Box box;
        private final boolean fromEnd;
        private final int[] furthest;
        private final int offset;
        /** Diagonals no longer followed at the low (bottom edge) and high (right edge) side: their paths ran off the box. */
        private int droppedLow;
        private int droppedHigh;

        Frontier(Box box, boolean fromEnd, int rounds) {
            this.box = box;
            this.fromEnd = fromEnd;
            this.offset = rounds + 1;
            this.furthest = new int[2 * rounds + 3];
            Arrays.fill(furthest, -1);
            furthest[offset + 1] = 0; // so the first round starts at the corner
        }

        int reach(int k) {
            int i = offset + k;
            return i >= 0 && i < furthest.length ? furthest[i] : -1;
        }

        /**
         * Extends the paths by one more edit each (to diagonals -d..d) and the run of equal lines that follows;
         * when {@code check}, returns the snake of the first path that meets one of {@code other}'s.
         */
        Snake advance(int d, Frontier other, boolean check) {
            int n = box.n(), m = box.m();
            for (int k = -d + droppedLow; k <= d - droppedHigh; k += 2) {
                // From diagonal k + 1 by an added line (down), or from k - 1 by a deleted one, whichever got further.
                boolean down = k == -d || (k != d && furthest[offset + k - 1] < furthest[offset + k + 1]);
                int start = down ? furthest[offset + k + 1] : furthest[offset + k - 1] + 1;
                int x = start;
                while (x < n && x - k < m && same(x, x - k)) x++;
                furthest[offset + k] = x;
                if (x > n) {
                    droppedHigh += 2;
                } else if (x - k > m) {
                    droppedLow += 2;
                } else if (check) {
                    int across = other.reach(n - m - k); // this diagonal, counted from the other corner
                    if (across >= 0 && x + across >= n) return snake(start, x, k, fromEnd ? 2 * d : 2 * d - 1);
                }
            }
            return null;
        }

        /** Whether the lines x and y steps in from this frontier's corner are equal. */
        private boolean same(int x, int y) {
            return fromEnd ? a[box.aHi() - 1 - x] == b[box.bHi() - 1 - y] : a[box.aLo() + x] == b[box.bLo() + y];
        }

        /** The snake from x = start to x = end on diagonal k, as old/new line numbers from the top-left. */
        private Snake snake(int start, int end, int k, int edits) {
            if (fromEnd) return new Snake(box.aHi() - end, box.bHi() - (end - k), box.aHi() - start, box.bHi() - (start - k), edits);
            return new Snake(box.aLo() + start, box.bLo() + start - k, box.aLo() + end, box.bLo() + end - k, edits);
        }
    }
}
