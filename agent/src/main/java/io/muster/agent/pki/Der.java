package io.muster.agent.pki;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The few DER (ASN.1 distinguished encoding) elements an X.509 certificate is made of: each method returns one
 * whole element (tag, definite length, content), and the constructed ones take their parts already encoded.
 */
final class Der {
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");

    private Der() {}

    static byte[] sequence(byte[]... parts) {
        return element(0x30, concat(parts));
    }

    static byte[] set(byte[]... parts) {
        return element(0x31, concat(parts));
    }

    static byte[] integer(BigInteger value) {
        return element(0x02, value.toByteArray());
    }

    static byte[] bool(boolean value) {
        return element(0x01, new byte[] {(byte) (value ? 0xff : 0)});
    }

    static byte[] utf8(String text) {
        return element(0x0c, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] octets(byte[] content) {
        return element(0x04, content);
    }

    /** A BIT STRING of whole bytes, or of {@code unused} fewer bits in its last byte (key usage flags). */
    static byte[] bits(byte[] content, int unused) {
        byte[] withUnused = new byte[content.length + 1];
        withUnused[0] = (byte) unused;
        System.arraycopy(content, 0, withUnused, 1, content.length);
        return element(0x03, withUnused);
    }

    /** GeneralizedTime in UTC, which RFC 5280 allows for any year (UTCTime is required only before 2050). */
    static byte[] time(ZonedDateTime instant) {
        return element(0x18, GENERALIZED_TIME.format(instant.withZoneSameInstant(ZoneOffset.UTC)).getBytes(StandardCharsets.US_ASCII));
    }

    /** An OBJECT IDENTIFIER written in dotted form, e.g. {@code 2.5.4.3}. */
    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        base128(content, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) base128(content, Long.parseLong(arcs[i]));
        return element(0x06, content.toByteArray());
    }

    /** {@code [n] EXPLICIT}: the tagged element wraps {@code inner} whole. */
    static byte[] explicit(int n, byte[] inner) {
        return element(0xa0 | n, inner);
    }

    /** {@code [n] IMPLICIT} of a primitive type: the context tag replaces the type's own. */
    static byte[] implicit(int n, byte[] content) {
        return element(0x80 | n, content);
    }

    private static void base128(ByteArrayOutputStream out, long value) {
        int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 6) / 7);
        for (int g = groups - 1; g >= 0; g--) {
            int seven = (int) (value >>> (7 * g)) & 0x7f;
            out.write(g == 0 ? seven : seven | 0x80);
        }
    }

    private static byte[] element(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int b = bytes - 1; b >= 0; b--) out.write(length >>> (8 * b));
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) out.writeBytes(part);
        return out.toByteArray();
    }
}
