package io.muster.engine.cache;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * What tells one content of a compile input from another: its length and two CRCs of different polynomials (64
 * bits). Not SHA-256: a one-shot run compiles with the client compiler, for which SHA-256 is no intrinsic (about
 * 9 ms a megabyte, the largest part of a cache hit on a large manifest), where both CRCs are (a few hundredths of a
 * millisecond). A cache input needs change detection, not resistance to a forger: whoever can write an input can
 * make it say anything without one.
 */
final class Fingerprint {
    private Fingerprint() {}

    /**
     * The fingerprint of {@code file}'s content; of a directory, of the names in it (a compile that lists one, as a
     * CCM scaffold does, depends on what is there); null when it is neither, or cannot be read.
     */
    static String of(Path file) {
        if (Files.isDirectory(file)) return listing(file);
        try (InputStream in = Files.newInputStream(file)) {
            CRC32C castagnoli = new CRC32C();
            CRC32 ieee = new CRC32();
            long length = 0;
            byte[] buffer = new byte[64 << 10];
            for (int n; (n = in.read(buffer)) > 0; length += n) {
                castagnoli.update(buffer, 0, n);
                ieee.update(buffer, 0, n);
            }
            return String.format(Locale.ROOT, "%d:%08x:%08x", length, castagnoli.getValue(), ieee.getValue());
        } catch (IOException e) {
            return null;
        }
    }

    private static String listing(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            CRC32C names = new CRC32C();
            List<String> sorted = entries.map(p -> p.getFileName().toString()).sorted().toList();
            for (String name : sorted) names.update((name + "\0").getBytes(StandardCharsets.UTF_8));
            return String.format(Locale.ROOT, "directory:%d:%08x", sorted.size(), names.getValue());
        } catch (IOException e) {
            return null;
        }
    }

    /** The CRC32C of the first {@code length} bytes: what a cache entry ends with, so one cut short or changed is seen. */
    static int checksum(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}
