package io.muster.engine.util;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Unified diffs of file content for noop and {@code --diff}; binary content is summarised by checksum. */
public final class TextDiff {
    private TextDiff() {}

    public static String unified(String label, byte[] before, byte[] after) {
        String a = text(before);
        String b = text(after);
        if (a == null || b == null) {
            return "binary content: sha256 " + (before == null ? "(none)" : sha256(before)) + " -> " + sha256(after) + "\n";
        }
        List<String> original = before == null ? List.of() : a.lines().toList();
        List<String> revised = b.lines().toList();
        var patch = DiffUtils.diff(original, revised);
        String from = before == null ? "/dev/null" : label;
        List<String> lines = UnifiedDiffUtils.generateUnifiedDiff(from, label, original, patch, 3);
        StringBuilder out = new StringBuilder();
        for (String line : lines) out.append(line).append('\n');
        if (lines.isEmpty() || endsDiffer(a, b)) out.append("\\ trailing newline differs\n");
        return out.toString();
    }

    private static boolean endsDiffer(String a, String b) {
        return !a.isEmpty() && !b.isEmpty() && a.endsWith("\n") != b.endsWith("\n");
    }

    /** The bytes as UTF-8 text, or null when they are not text. */
    private static String text(byte[] bytes) {
        if (bytes == null) return "";
        for (byte x : bytes) if (x == 0) return null;
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
