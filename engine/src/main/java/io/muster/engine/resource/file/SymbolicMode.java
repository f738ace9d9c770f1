package io.muster.engine.resource.file;

import java.util.ArrayList;
import java.util.List;

/**
 * chmod's symbolic mode, as mgmt's file reads it: clauses joined by {@code ,}, each WHO OP PERMS. WHO is some of
 * {@code u}, {@code g}, {@code o}, or {@code a} (or nothing) for all three, which then is the only clause; each class
 * is named once in the mode. OP {@code =} sets the class's bits to PERMS (clearing its set-id bit), {@code +} adds
 * them, {@code -} removes them. PERMS are some of {@code r}, {@code w}, {@code x}, {@code X} (x for a directory, or
 * for a file some class may already execute: chmod's and Puppet's {@code u=rwX,go=rX}), {@code s} (set-id: of u and
 * g only) and {@code t} (sticky). The clauses apply in order to the mode the file has, so a class no clause names
 * keeps its bits.
 */
record SymbolicMode(List<Clause> clauses) implements DesiredMode {

    /** One WHO OP PERMS clause; {@code who} is expanded to some of "ugo". */
    record Clause(String who, char op, String perms) {}

    /** Why {@code text} is no symbolic mode, or null when it is one; naming no part of it (it may be rendered from a secret). */
    static String problem(String text) {
        try {
            parse(text);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    static SymbolicMode parse(String text) {
        String[] written = text.split(",", -1);
        List<Clause> clauses = new ArrayList<>();
        StringBuilder named = new StringBuilder();
        for (String clause : written) {
            int at = operator(clause);
            String who = clause.substring(0, at);
            String perms = clause.substring(at + 1);
            if (who.isEmpty() || who.contains("a")) {
                if (written.length > 1) throw new IllegalArgumentException("a clause for every class (a, or no class) must be the only clause");
                who = "ugo";
            }
            for (char w : who.toCharArray()) {
                if ("ugo".indexOf(w) < 0) throw new IllegalArgumentException("the classes before =, + or - are some of u, g, o, a");
                if (named.indexOf(String.valueOf(w)) >= 0) throw new IllegalArgumentException("a class is named twice; name each class once");
                named.append(w);
            }
            for (char p : perms.toCharArray()) {
                if ("rwxXst".indexOf(p) < 0) throw new IllegalArgumentException("the permissions after =, + or - are some of r, w, x, X, s, t");
            }
            clauses.add(new Clause(who, clause.charAt(at), perms));
        }
        return new SymbolicMode(List.copyOf(clauses));
    }

    /** Where the clause's one operator is. */
    private static int operator(String clause) {
        int at = -1;
        for (int i = 0; i < clause.length(); i++) {
            if ("=+-".indexOf(clause.charAt(i)) < 0) continue;
            if (at >= 0) throw new IllegalArgumentException("a clause has one of =, +, -, not more");
            at = i;
        }
        if (at < 0) throw new IllegalArgumentException("a clause needs one of =, +, -");
        return at;
    }

    @Override
    public int from(int current, boolean directory) {
        int mode = current & 07777;
        boolean searchable = directory || (current & 0111) != 0; // what X means, judged on the mode before the change
        for (Clause c : clauses) {
            int bits = bits(c.who(), searchable ? c.perms().replace('X', 'x') : c.perms().replace("X", ""));
            mode = switch (c.op()) {
                case '=' -> (mode & ~bits(c.who(), "rwxs")) | bits;
                case '+' -> mode | bits;
                default -> mode & ~bits;
            };
        }
        return mode;
    }

    /** The mode bits that {@code perms} give the classes {@code who}. */
    private static int bits(String who, String perms) {
        int bits = 0;
        for (char w : who.toCharArray()) {
            int shift = w == 'u' ? 6 : w == 'g' ? 3 : 0;
            for (char p : perms.toCharArray()) {
                bits |= switch (p) {
                    case 'r' -> 4 << shift;
                    case 'w' -> 2 << shift;
                    case 'x' -> 1 << shift;
                    case 's' -> w == 'u' ? 04000 : w == 'g' ? 02000 : 0;
                    default -> 01000; // t
                };
            }
        }
        return bits;
    }
}
