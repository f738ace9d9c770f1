package io.muster.engine.resource.file;

/**
 * The mode a file is to have: octal bits ({@code "0644"}), or symbolic clauses ({@code "u=rwx,go=rx"},
 * {@code "u+x"}) applied to the mode the file has, or would have when made.
 */
sealed interface DesiredMode permits DesiredMode.Octal, SymbolicMode {

    /** The mode wanted for a file whose mode is {@code current}. */
    int from(int current);

    /** Why {@code raw} is neither an octal mode nor a symbolic one, or null when it is one of them. */
    static String problem(Object raw) {
        if (raw instanceof String s && !s.isEmpty() && !Character.isDigit(s.charAt(0))) {
            String problem = SymbolicMode.problem(s);
            return problem == null ? null : "expected an octal mode like \"0644\" or a symbolic one like \"u=rwx,go=rx\", got '" + s + "' (" + problem + ")";
        }
        return FileMode.problem(raw);
    }

    /** {@code text}, checked by {@link #problem}. */
    static DesiredMode parse(String text) {
        return Character.isDigit(text.charAt(0)) ? new Octal(FileMode.parse(text)) : SymbolicMode.parse(text);
    }

    /** The same bits whatever the file has. */
    record Octal(int bits) implements DesiredMode {
        @Override
        public int from(int current) {
            return bits;
        }
    }
}
