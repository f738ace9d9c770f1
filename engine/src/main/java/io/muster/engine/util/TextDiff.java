package io.muster.engine.util;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Unified diffs of file content for noop and {@code --diff}, with 3 lines of context. Binary content is summarised
 * by checksum; text too large to diff cheaply (more than {@link #MAX_LINES} lines, or more than {@link #MAX_EDITS}
 * lines deleted plus inserted) by line count, size and checksum.
 */
public final class TextDiff {
    /**
     * Config files are far shorter. It bounds the search's O(lines × edits) worst case: 100,000 random lines of
     * "0" and "1" against another such file are summarised in under a second.
     */
    static final int MAX_LINES = 100_000;
    /** A whole config file rewritten still gets a diff; past this, two versions with nothing in common cost O(MAX_EDITS²). */
    static final int MAX_EDITS = 5_000;
    private static final int CONTEXT = 3;

    private TextDiff() {}

    public static String unified(String label, byte[] before, byte[] after) {
        String a = text(before);
        String b = text(after);
        if (a == null || b == null) {
            return "binary content: sha256 " + (before == null ? "(none)" : sha256(before)) + " -> " + sha256(after) + "\n";
        }
        List<String> original = a.lines().limit(MAX_LINES + 1).toList();
        List<String> revised = b.lines().limit(MAX_LINES + 1).toList();
        if (original.size() > MAX_LINES || revised.size() > MAX_LINES) {
            return summary(before, after, "more than " + MAX_LINES + " lines");
        }
        Optional<List<MyersDiff.Delta>> deltas = MyersDiff.deltas(original, revised, MAX_EDITS);
        if (deltas.isEmpty()) return summary(before, after, "more than " + MAX_EDITS + " lines changed");
        StringBuilder out = new StringBuilder();
        if (!deltas.get().isEmpty()) {
            out.append("--- ").append(before == null ? "/dev/null" : label).append('\n');
            out.append("+++ ").append(label).append('\n');
            hunks(out, original, revised, deltas.get());
        }
        if (deltas.get().isEmpty() || endsDiffer(a, b)) out.append("\\ trailing newline differs\n");
        return out.toString();
    }

    /** Deltas less than 2 * CONTEXT + 1 equal lines apart share a hunk. */
    private static void hunks(StringBuilder out, List<String> original, List<String> revised, List<MyersDiff.Delta> deltas) {
        int first = 0;
        for (int i = 1; i <= deltas.size(); i++) {
            if (i == deltas.size() || deltas.get(i).from() - end(deltas.get(i - 1)) > 2 * CONTEXT) {
                hunk(out, original, revised, deltas.subList(first, i));
                first = i;
            }
        }
    }

    private static void hunk(StringBuilder out, List<String> original, List<String> revised, List<MyersDiff.Delta> deltas) {
        MyersDiff.Delta first = deltas.getFirst();
        int start = Math.max(0, first.from() - CONTEXT);
        int end = Math.min(original.size(), end(deltas.getLast()) + CONTEXT);
        int revisedStart = first.to() - (first.from() - start);
        int revisedLength = end - start;
        for (MyersDiff.Delta delta : deltas) revisedLength += delta.inserted() - delta.deleted();
        out.append("@@ -").append(start + 1).append(',').append(end - start)
                .append(" +").append(revisedStart + 1).append(',').append(revisedLength).append(" @@\n");
        int line = start;
        for (MyersDiff.Delta delta : deltas) {
            for (; line < delta.from(); line++) out.append(' ').append(original.get(line)).append('\n');
            for (; line < end(delta); line++) out.append('-').append(original.get(line)).append('\n');
            for (String added : revised.subList(delta.to(), delta.to() + delta.inserted())) out.append('+').append(added).append('\n');
        }
        for (; line < end; line++) out.append(' ').append(original.get(line)).append('\n');
    }

    private static int end(MyersDiff.Delta delta) {
        return delta.from() + delta.deleted();
    }

    /** What a reader can still compare when the diff is not shown. */
    private static String summary(byte[] before, byte[] after, String why) {
        return "content differs, not diffed (" + why + "): " + (before == null ? 0 : lineCount(before)) + " -> " + lineCount(after)
                + " lines, " + (before == null ? 0 : before.length) + " -> " + after.length + " bytes, sha256 "
                + (before == null ? "(none)" : sha256(before)) + " -> " + sha256(after) + "\n";
    }

    /** The number of lines {@link String#lines()} gives for UTF-8 text, counted on its bytes: making a million lines costs more than the diff. */
    static int lineCount(byte[] text) {
        int count = 0;
        for (int i = 0; i < text.length; i++) {
            if (text[i] == '\n' || text[i] == '\r' && (i + 1 == text.length || text[i + 1] != '\n')) count++;
        }
        boolean unterminated = text.length > 0 && text[text.length - 1] != '\n' && text[text.length - 1] != '\r';
        return unterminated ? count + 1 : count;
    }

    private static boolean endsDiffer(String a, String b) {
        return !a.isEmpty() && !b.isEmpty() && a.endsWith("\n") != b.endsWith("\n");
    }

    /**
     * The bytes as UTF-8 text, or null when they are not text. Decoding replaces malformed input, so the bytes are
     * UTF-8 exactly when the text encodes back to them; this takes a third of a strict decoder's time on large files.
     */
    private static String text(byte[] bytes) {
        if (bytes == null) return "";
        for (byte x : bytes) if (x == 0) return null;
        String text = new String(bytes, StandardCharsets.UTF_8);
        return Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes) ? text : null;
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
