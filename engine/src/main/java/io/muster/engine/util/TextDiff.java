package io.muster.engine.util;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Unified diffs of file content for noop and {@code --diff}, with 3 lines of context, in the form GNU {@code diff -u}
 * writes, so {@code patch -p1} and {@code git apply} take them: {@code --- a/PATH} and {@code +++ b/PATH} headers
 * ({@code /dev/null} for a file that does not exist yet), an empty side's range as {@code -0,0}, and
 * {@code \ No newline at end of file} after a line that has none. Binary content is summarised by checksum; text too
 * large to diff cheaply (more than {@link #MAX_LINES} lines, or more than {@link #MAX_EDITS} lines deleted plus
 * inserted) by line count, size and checksum.
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
    private static final String NO_NEWLINE = "\\ No newline at end of file\n";

    private TextDiff() {}

    /** The diff from {@code before} (null: no file) to {@code after}, both of the file {@code label} names; empty if they are equal. */
    public static String unified(String label, byte[] before, byte[] after) {
        String a = text(before);
        String b = text(after);
        if (a == null || b == null) {
            return "binary content: sha256 " + (before == null ? "(none)" : sha256(before)) + " -> " + sha256(after) + "\n";
        }
        List<String> original = lines(a);
        List<String> revised = lines(b);
        if (original.size() > MAX_LINES || revised.size() > MAX_LINES) {
            return summary(before, after, "more than " + MAX_LINES + " lines");
        }
        Optional<List<MyersDiff.Delta>> deltas = MyersDiff.deltas(original, revised, MAX_EDITS);
        if (deltas.isEmpty()) return summary(before, after, "more than " + MAX_EDITS + " lines changed");
        if (deltas.get().isEmpty()) return "";
        String path = label.startsWith("/") ? label : "/" + label;
        StringBuilder out = new StringBuilder();
        out.append("--- ").append(before == null ? "/dev/null" : "a" + path).append('\n');
        out.append("+++ b").append(path).append('\n');
        hunks(out, original, revised, deltas.get());
        return out.toString();
    }

    /**
     * The lines of {@code text}, each with its {@code \n} (the last one may have none), at most {@link #MAX_LINES} + 1.
     * Only {@code \n} ends a line, as for {@code patch}: a {@code \r} before it is part of the line.
     */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < text.length() && lines.size() <= MAX_LINES) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end + 1;
            lines.add(text.substring(start, end));
            start = end;
        }
        return lines;
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
        out.append("@@ -").append(range(start, end - start)).append(" +").append(range(revisedStart, revisedLength)).append(" @@\n");
        int line = start;
        for (MyersDiff.Delta delta : deltas) {
            for (; line < delta.from(); line++) line(out, ' ', original.get(line));
            for (; line < end(delta); line++) line(out, '-', original.get(line));
            for (String added : revised.subList(delta.to(), delta.to() + delta.inserted())) line(out, '+', added);
        }
        for (; line < end; line++) line(out, ' ', original.get(line));
    }

    /** GNU's form: {@code 5,3} for three lines from line 5, {@code 5} for one, and the line before for none ({@code 0,0}). */
    private static String range(int start, int length) {
        if (length == 0) return start + ",0";
        return length == 1 ? String.valueOf(start + 1) : (start + 1) + "," + length;
    }

    private static void line(StringBuilder out, char tag, String line) {
        out.append(tag).append(line);
        if (!line.endsWith("\n")) out.append('\n').append(NO_NEWLINE);
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

    /** The number of lines as the diff counts them (only {@code \n} ends one), counted on the bytes: making a million lines costs more than the diff. */
    static int lineCount(byte[] text) {
        int count = 0;
        for (byte b : text) if (b == '\n') count++;
        return text.length > 0 && text[text.length - 1] != '\n' ? count + 1 : count;
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
