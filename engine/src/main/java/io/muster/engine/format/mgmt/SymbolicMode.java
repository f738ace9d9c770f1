package io.muster.engine.format.mgmt;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * mgmt's symbolic file modes that set the whole mode ({@code u=rwx,g=rx,o=}, {@code a=r}) as octal text. Ones that
 * change the file's current mode ({@code u+x}, {@code go-w}) or leave a class unset depend on the file as found,
 * which muster's mode does not: they are not converted.
 */
final class SymbolicMode {
    private SymbolicMode() {}

    /** The octal text of {@code mode}, or empty when it does not set every class with {@code =}. */
    static Optional<String> octal(String mode) {
        int bits = 0;
        Set<Character> assigned = new HashSet<>();
        for (String clause : mode.split(",", -1)) {
            int eq = clause.indexOf('=');
            if (eq < 0 || clause.indexOf('=', eq + 1) >= 0 || clause.contains("+") || clause.contains("-")) return Optional.empty();
            String who = clause.substring(0, eq).isEmpty() || clause.substring(0, eq).contains("a") ? "ugo" : clause.substring(0, eq);
            for (char w : who.toCharArray()) {
                if ("ugo".indexOf(w) < 0 || !assigned.add(w)) return Optional.empty();
                for (char p : clause.substring(eq + 1).toCharArray()) {
                    int bit = bit(w, p);
                    if (bit < 0) return Optional.empty();
                    bits |= bit;
                }
            }
        }
        return assigned.size() == 3 ? Optional.of(String.format("%04o", bits)) : Optional.empty();
    }

    /** The mode bit that permission {@code p} gives class {@code who}, or -1 when it gives none. */
    private static int bit(char who, char p) {
        int shift = who == 'u' ? 6 : who == 'g' ? 3 : 0;
        return switch (p) {
            case 'r' -> 4 << shift;
            case 'w' -> 2 << shift;
            case 'x' -> 1 << shift;
            case 's' -> who == 'u' ? 04000 : who == 'g' ? 02000 : -1;
            case 't' -> who == 'o' ? 01000 : -1;
            default -> -1;
        };
    }
}
