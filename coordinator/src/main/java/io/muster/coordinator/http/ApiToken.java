package io.muster.coordinator.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The bearer token that changing actions need ({@code --api-token-file}: the file's content, surrounding
 * whitespace left out). It is compared by the SHA-256 digests of both sides with {@link MessageDigest#isEqual},
 * whose time does not depend on where they differ, nor (digests being of one length) on the given token's length.
 */
final class ApiToken {
    private final byte[] digest;

    private ApiToken(String token) {
        this.digest = sha256(token);
    }

    /** The token in {@code file}. @throws IOException when it cannot be read or holds no token */
    static ApiToken read(Path file) throws IOException {
        String token;
        try {
            token = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new IOException("--api-token-file " + file + ": cannot read it (" + e + ")", e);
        }
        if (token.isEmpty()) throw new IOException("--api-token-file " + file + ": empty; expected the API's bearer token");
        return new ApiToken(token);
    }

    /** Whether an {@code Authorization} header value is {@code Bearer} and this token. */
    boolean admits(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) return false;
        return MessageDigest.isEqual(digest, sha256(authorization.substring(7).strip()));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
