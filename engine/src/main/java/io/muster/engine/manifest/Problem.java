package io.muster.engine.manifest;

/**
 * One thing wrong with a manifest, printed as {@code FILE:LINE:COL: message}: one line, whatever control
 * characters the manifest put into the names it quotes.
 */
public record Problem(Mark mark, String message) implements Comparable<Problem> {

    public Problem {
        message = YNode.printable(message);
    }

    @Override
    public String toString() {
        return mark + ": " + message;
    }

    @Override
    public int compareTo(Problem other) {
        int byFile = mark.file().toString().compareTo(other.mark.file().toString());
        if (byFile != 0) return byFile;
        int byLine = Integer.compare(mark.line(), other.mark.line());
        return byLine != 0 ? byLine : Integer.compare(mark.column(), other.mark.column());
    }
}
