package io.muster.engine.resource.account;

import java.util.List;

/** Checks for the properties that hold a numeric id ({@code uid}, a group's {@code gid}) or a name or id (a user's {@code gid}). */
final class Ids {
    private Ids() {}

    /** A uid or gid: a whole number the kernel accepts (0 to 2^32 - 2). */
    static String idProblem(Object raw) {
        String text = String.valueOf(raw);
        if (!text.matches("[0-9]{1,10}") || Long.parseLong(text) > 0xFFFF_FFFEL) {
            return "expected a numeric id from 0 to 4294967294, got '" + text + "'";
        }
        return null;
    }

    /** A user or group name as the shadow tools accept it by default, or a numeric id. */
    static String nameOrIdProblem(Object raw) {
        String text = String.valueOf(raw);
        if (text.matches("[0-9]+")) return idProblem(raw);
        return nameProblem(text);
    }

    /** A name, or a list of names ({@code groups}, {@code members}). */
    static String namesProblem(Object raw) {
        for (Object name : raw instanceof List<?> list ? list : List.of(raw)) {
            String problem = nameProblem(String.valueOf(name));
            if (problem != null) return problem;
        }
        return null;
    }

    static String nameProblem(String name) {
        if (!name.matches("[a-z_][a-z0-9_.-]{0,30}\\$?")) {
            return "expected a name of at most 32 characters: lower-case letters, digits, '_', '-' and '.', not starting with a digit or '-', got '"
                    + name + "'";
        }
        return null;
    }
}
