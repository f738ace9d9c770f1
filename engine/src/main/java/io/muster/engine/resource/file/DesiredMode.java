package io.muster.engine.resource.file;

/**
 * The mode a file is to have: octal bits ({@code "0644"}), or symbolic clauses ({@code "u=rwx,go=rx"},
 * {@code "u+x"}) applied to the mode the file has, or would have when made.
 */
sealed interface DesiredMode permits DesiredMode.Octal, SymbolicMode {

    /** The mode wanted for a file (or, when {@code directory}, a directory) whose mode is {@code current}. */
    int from(int current, boolean directory);

    /** Why {@code raw} is neither an octal mode nor a symbolic one, or null when it is one of them. */
    static String problem(Object raw) {
        if (raw instanceof String s && !s.isEmpty() && !Character.isDigit(s.charAt(0))) {
            String problem = SymbolicMode.problem(s);
            if (problem == null) return null;
            String expected = "expected an octal mode like \"0644\" or a symbolic one like \"u=rwx,go=rx\", got '" + s + "'";
            return LS_STYLE.matcher(s).matches() ? expected + " (permissions as ls lists them: write them as \"" + octal(s) + "\")"
                    : expected + " (" + problem + ")";
        }
        return FileMode.problem(raw);
    }

    /** Permissions as {@code ls -l} lists them, without the file type: what people paste for a mode. */
    java.util.regex.Pattern LS_STYLE = java.util.regex.Pattern.compile("[r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-]");

    /** The octal mode of permissions {@link #LS_STYLE} lists. */
    private static String octal(String listed) {
        int mode = 0;
        for (int i = 0; i < 9; i++) {
            char c = listed.charAt(i);
            if (c != '-' && c != 'S' && c != 'T') mode |= 1 << (8 - i);
        }
        if (Character.toLowerCase(listed.charAt(2)) == 's') mode |= 04000;
        if (Character.toLowerCase(listed.charAt(5)) == 's') mode |= 02000;
        if (Character.toLowerCase(listed.charAt(8)) == 't') mode |= 01000;
        return String.format("%04o", mode);
    }

    /** {@code text}, checked by {@link #problem}. */
    static DesiredMode parse(String text) {
        return Character.isDigit(text.charAt(0)) ? new Octal(FileMode.parse(text)) : SymbolicMode.parse(text);
    }

    /** The same bits whatever the file has. */
    record Octal(int bits) implements DesiredMode {
        @Override
        public int from(int current, boolean directory) {
            return bits;
        }
    }
}
