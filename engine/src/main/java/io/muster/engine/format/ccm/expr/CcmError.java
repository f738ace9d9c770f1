package io.muster.engine.format.ccm.expr;

/**
 * Where and why a CCM template or expression failed: 1-based line and column in the text that was parsed (a text of
 * one line has only line 1), and the reason without the place.
 */
public record CcmError(int line, int column, String reason) {

    /** {@code column 7: reason}, or {@code line 2, column 7: reason} in a text of several lines. */
    public String message() {
        return (line == 1 ? "column " + column : "line " + line + ", column " + column) + ": " + reason;
    }

    /** This error of an expression that starts at {@code offset} in {@code text}, placed in {@code text}. */
    CcmError within(String text, int offset) {
        int absolute = offset + column - 1;
        int lineNumber = 1;
        int lineStart = 0;
        for (int i = 0; i < absolute && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lineNumber++;
                lineStart = i + 1;
            }
        }
        return new CcmError(lineNumber, absolute - lineStart + 1, reason);
    }
}
