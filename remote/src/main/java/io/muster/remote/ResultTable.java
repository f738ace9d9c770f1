package io.muster.remote;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The end of {@code muster remote} for people: a line per host, in the order given (name, result, changes, failures,
 * time, cache), its error indented below it.
 */
public final class ResultTable {
    private static final List<String> HEADER = List.of("HOST", "RESULT", "CHANGED", "FAILED", "TIME", "CACHE");

    private ResultTable() {}

    public static String render(List<RemoteResult> results) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (RemoteResult r : results) {
            boolean ran = r.result() != RemoteResult.Result.UNREACHABLE;
            rows.add(List.of(r.name(), r.result().word(), ran ? Long.toString(r.changed()) : "-", ran ? Long.toString(r.failed()) : "-",
                    String.format(Locale.ROOT, "%.1fs", r.seconds()), r.cache() == null ? "-" : r.cache()));
        }
        int[] width = new int[HEADER.size()];
        rows.forEach(row -> {
            for (int c = 0; c < row.size(); c++) width[c] = Math.max(width[c], row.get(c).length());
        });
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < HEADER.size(); c++) line.append(String.format(Locale.ROOT, "%-" + (width[c] + 2) + "s", rows.get(r).get(c)));
            out.append(line.toString().stripTrailing()).append('\n');
            String error = r == 0 ? null : results.get(r - 1).error();
            if (error != null) out.append("  ").append(error).append('\n');
        }
        return out.toString();
    }
}
