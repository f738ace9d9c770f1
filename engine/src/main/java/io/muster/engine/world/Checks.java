package io.muster.engine.world;

import java.nio.charset.StandardCharsets;

/** What every World accepts, so that a kind tested on the {@link MemoryWorld} behaves alike on etcd. */
public final class Checks {
    private static final int MAX_NAME_LENGTH = 1024;

    private Checks() {}

    /** A name (of a key, a host, a kind, an export): 1 to 1024 characters, none of them a control character. */
    public static void name(String what, String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(what + " must be 1 to " + MAX_NAME_LENGTH + " characters without control characters, got "
                    + (name == null ? "none" : "'" + name + "'"));
        }
    }

    /** A value, or an export's content: present and at most {@link World#MAX_VALUE_BYTES} in UTF-8. */
    public static void value(String value) {
        if (value == null) throw new IllegalArgumentException("a value is required (delete a key to remove its value)");
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > World.MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("a value may hold at most " + World.MAX_VALUE_BYTES + " bytes, got " + bytes);
        }
    }
}
