package io.muster.engine.format.ccm.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the {@code {{ expr }}} and {@code ${ expr }} parts of a string as CCM's scanner does: a closing delimiter
 * inside a quoted string does not close, {@code ${ }} counts nested braces (a predicate's {@code { # > 1 }}),
 * {@code ${{} is a literal {@code $} followed by a {@code {{ }}} part, and an opener that is never closed is text.
 */
final class TemplateScanner {
    /**
     * One part: {@code start}/{@code end} bound it with its delimiters, {@code innerStart}/{@code innerEnd} the
     * expression without the spaces around it.
     */
    record Match(int start, int end, int innerStart, int innerEnd) {}

    private TemplateScanner() {}

    static List<Match> scan(String s) {
        List<Match> matches = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (i < n) {
            boolean dollar;
            if (i < n - 1 && s.charAt(i) == '{' && s.charAt(i + 1) == '{') {
                dollar = false;
            } else if (i < n - 1 && s.charAt(i) == '$' && s.charAt(i + 1) == '{') {
                if (i + 2 < n && s.charAt(i + 2) == '{') { // ${{ is a literal $, then a {{ }} part
                    i++;
                    continue;
                }
                dollar = true;
            } else {
                i++;
                continue;
            }
            int start = i;
            Match m = close(s, start, dollar);
            if (m == null) {
                i = start + 2; // never closed: the opener is text
            } else {
                matches.add(m);
                i = m.end();
            }
        }
        return matches;
    }

    private static Match close(String s, int start, boolean dollar) {
        int n = s.length();
        boolean inDouble = false;
        boolean inSingle = false;
        boolean inBacktick = false;
        boolean escaped = false;
        int depth = 1;
        int innerStart = start + 2;
        for (int i = innerStart; i < n; i++) {
            char c = s.charAt(i);
            if (escaped) {
                escaped = false;
            } else if (inBacktick) {
                inBacktick = c != '`';
            } else if (inDouble || inSingle) {
                if (c == '\\') escaped = true;
                else if (inDouble && c == '"') inDouble = false;
                else if (inSingle && c == '\'') inSingle = false;
            } else if (c == '"') {
                inDouble = true;
            } else if (c == '\'') {
                inSingle = true;
            } else if (c == '`') {
                inBacktick = true;
            } else if (!dollar && c == '}' && i + 1 < n && s.charAt(i + 1) == '}') {
                return match(s, start, i + 2, innerStart, i);
            } else if (dollar && c == '{') {
                depth++;
            } else if (dollar && c == '}' && --depth == 0) {
                return match(s, start, i + 1, innerStart, i);
            }
        }
        return null;
    }

    private static Match match(String s, int start, int end, int rawStart, int rawEnd) {
        int from = rawStart;
        int to = rawEnd;
        while (from < to && Character.isWhitespace(s.charAt(from))) from++;
        while (to > from && Character.isWhitespace(s.charAt(to - 1))) to--;
        if (from == to) return new Match(start, end, rawStart, rawStart);
        return new Match(start, end, from, to);
    }
}
