package io.muster.engine.report;

import io.muster.engine.health.HealthStatus;

/**
 * Colour for the text report on a terminal (ANSI escapes), or none: status words (changed yellow, failed red, skipped
 * and unresolvable magenta; health checks ok green, warning yellow, critical red, unknown magenta) and the lines of a
 * diff (headers bold, hunk ranges cyan, removed lines red, added green).
 */
public final class Colors {
    public static final Colors NONE = new Colors(false);
    public static final Colors ANSI = new Colors(true);

    private static final String BOLD = "1";
    private static final String RED = "31";
    private static final String GREEN = "32";
    private static final String YELLOW = "33";
    private static final String MAGENTA = "35";
    private static final String CYAN = "36";

    private final boolean on;

    private Colors(boolean on) {
        this.on = on;
    }

    String status(Status status) {
        String color = switch (status) {
            case CHANGED -> YELLOW;
            case STABLE -> GREEN;
            case FAILED, WOULD_FAIL -> RED;
            case SKIPPED, UNRESOLVABLE -> MAGENTA;
        };
        return paint(color, status.words());
    }

    String health(HealthStatus status) {
        String color = switch (status) {
            case OK -> GREEN;
            case WARNING -> YELLOW;
            case CRITICAL -> RED;
            case UNKNOWN -> MAGENTA;
        };
        return paint(color, status.label());
    }

    /** A diff as TextDiff writes it, each line coloured by what it is; a summary in its place stays as it is. */
    String diff(String diff) {
        if (!on || !diff.startsWith("--- ")) return diff;
        StringBuilder out = new StringBuilder();
        int index = 0;
        for (String line : diff.split("(?<=\n)")) {
            String text = line.endsWith("\n") ? line.substring(0, line.length() - 1) : line;
            String color = index++ < 2 ? BOLD : switch (text.isEmpty() ? ' ' : text.charAt(0)) {
                case '@' -> CYAN;
                case '-' -> RED;
                case '+' -> GREEN;
                default -> null;
            };
            out.append(color == null ? text : paint(color, text)).append(line.endsWith("\n") ? "\n" : "");
        }
        return out.toString();
    }

    private String paint(String color, String text) {
        return on ? "\u001b[" + color + "m" + text + "\u001b[0m" : text;
    }
}
