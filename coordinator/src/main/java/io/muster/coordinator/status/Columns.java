package io.muster.coordinator.status;

import java.util.List;
import java.util.Locale;

/** Rows of text in aligned columns, each as wide as its widest cell plus two spaces; the last column is not padded. */
final class Columns {
    private final int[] widths;

    /** Columns fitting every row of {@code rows} (the header included). */
    Columns(List<List<String>> rows) {
        widths = new int[rows.getFirst().size()];
        for (List<String> row : rows) for (int i = 0; i < row.size(); i++) widths[i] = Math.max(widths[i], row.get(i).length());
    }

    /** {@code row} as one line, with its newline. */
    String line(List<String> row) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < row.size(); i++) {
            line.append(i == row.size() - 1 ? row.get(i) : String.format(Locale.ROOT, "%-" + (widths[i] + 2) + "s", row.get(i)));
        }
        return line.toString().stripTrailing() + "\n";
    }
}
