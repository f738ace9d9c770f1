package io.muster.engine.run;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The name of a resource's state directory: the start of its encoded name (readable, for whoever looks)
 * and a hash of the whole name, so that every name fits the file system's limit of 255 bytes.
 */
final class StateNames {
    private StateNames() {}

    static final int MAX_NAME = 255;
    private static final int READABLE = 48;

    static String of(String name) {
        String encoded = encode(name);
        String readable = encoded.substring(0, Math.min(encoded.length(), READABLE));
        return readable + "-" + hash(name);
    }

    private static String hash(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** A resource name as one safe path segment: {@code /etc/motd} becomes {@code %2Fetc%2Fmotd}. */
    static String encode(String name) {
        StringBuilder out = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || (c == '.' && out.length() > 0)) out.append(c);
            else out.append('%').append(String.format("%02X", b & 0xff));
        }
        return out.toString();
    }
}
