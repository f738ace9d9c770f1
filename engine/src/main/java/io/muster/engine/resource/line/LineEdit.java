package io.muster.engine.resource.line;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The text of a file as lines, and the edit a {@code line} resource makes to it: pure, so that noop and apply
 * compute the same result. A file's last line may lack its newline; it keeps lacking it unless a line is
 * added after it.
 */
final class LineEdit {
    private final List<String> lines;
    private boolean endsWithNewline;
    private final String path;

    LineEdit(String text, String path) {
        this.path = path;
        this.lines = new ArrayList<>(List.of(text.split("\n", -1)));
        this.endsWithNewline = text.isEmpty() || text.endsWith("\n");
        if (endsWithNewline) lines.removeLast(); // the empty string after the last newline
    }

    String text() {
        if (lines.isEmpty()) return "";
        return String.join("\n", lines) + (endsWithNewline ? "\n" : "");
    }

    /** Makes {@code line} present: replaces what {@code match} matches, else adds it after {@code after}'s line or at the end. */
    void present(String line, Pattern match, Pattern after, boolean multiple) throws IOException {
        List<Integer> matching = match == null ? List.of() : indexes(match, "match", multiple);
        if (!matching.isEmpty()) {
            for (int i : matching) lines.set(i, line);
            return;
        }
        if (lines.contains(line)) return;
        List<Integer> anchors = after == null ? List.of() : indexes(after, "after", multiple);
        if (anchors.isEmpty()) {
            lines.add(line);
            endsWithNewline = true;
            return;
        }
        for (int i = anchors.size() - 1; i >= 0; i--) {
            int at = anchors.get(i) + 1;
            if (at == lines.size()) endsWithNewline = true;
            lines.add(at, line);
        }
    }

    /** Removes the lines {@code match} matches, or else those equal to {@code line}. */
    void absent(String line, Pattern match, boolean multiple) throws IOException {
        List<Integer> doomed = match != null ? indexes(match, "match", multiple) : equalTo(line);
        for (int i = doomed.size() - 1; i >= 0; i--) lines.remove((int) doomed.get(i));
    }

    private List<Integer> equalTo(String line) {
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).equals(line)) found.add(i);
        return found;
    }

    /** The lines {@code pattern} finds something in; more than one is an error unless {@code multiple}. */
    private List<Integer> indexes(Pattern pattern, String property, boolean multiple) throws IOException {
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) if (pattern.matcher(lines.get(i)).find()) found.add(i);
        if (found.size() > 1 && !multiple) {
            throw new IOException(property + " /" + pattern + "/ matches " + found.size() + " lines of " + path + " (lines "
                    + String.join(", ", found.stream().map(i -> String.valueOf(i + 1)).toList())
                    + "); set multiple: true to " + (property.equals("after") ? "add the line after each" : "change them all"));
        }
        return found;
    }
}
