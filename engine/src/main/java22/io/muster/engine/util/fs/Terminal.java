package io.muster.engine.util.fs;

/** Whether muster's output goes to a terminal, where colour helps, or to a pipe or file, where it would be noise. */
public final class Terminal {
    private Terminal() {}

    /** Whether standard output (descriptor 1) is a terminal. */
    public static boolean standardOutput() {
        return Libc.isatty(1);
    }

    /** Whether standard error (descriptor 2) is a terminal, where a progress line can be redrawn in place. */
    public static boolean standardError() {
        return Libc.isatty(2);
    }
}
