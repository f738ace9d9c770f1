package io.muster.coordinator.auth;

import io.muster.agent.pki.PemFiles;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The hosts' certificates the fleet's CA issued and which of them are revoked, kept beside it in {@code
 * issued.txt}: a line per certificate, {@code SERIAL USER - ISSUED-AT} or {@code SERIAL USER REVOKED-AT ISSUED-AT}
 * (the serial in hex, the etcd user it logs in as, ISO-8601 instants; a line of an earlier muster has no ISSUED-AT).
 * The revocation list is made from it.
 */
final class IssuedCertificates {
    static final String FILE = "issued.txt";

    /** One certificate; {@code revoked} is null while it is good, {@code issued} when not known. */
    record Entry(BigInteger serial, String user, Instant revoked, Instant issued) {}

    private IssuedCertificates() {}

    /** The entries of {@code dir}'s file; none when there is no file yet. */
    static List<Entry> read(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) return new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String[] words = lines.get(i).strip().split(" ");
            try {
                if (words.length != 3 && words.length != 4) throw new IllegalArgumentException("3 or 4 words");
                entries.add(new Entry(new BigInteger(words[0], 16), words[1], words[2].equals("-") ? null : Instant.parse(words[2]),
                        words.length == 4 ? Instant.parse(words[3]) : null));
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw new IOException(file + ":" + (i + 1) + ":1: expected SERIAL USER - ISSUED-AT or SERIAL USER REVOKED-AT ISSUED-AT, got '"
                        + lines.get(i) + "'", e);
            }
        }
        return entries;
    }

    /** Writes {@code entries} as {@code dir}'s file, whole (0600). */
    static void write(Path dir, List<Entry> entries) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Entry e : entries) {
            text.append(e.serial().toString(16)).append(' ').append(e.user()).append(' ').append(e.revoked() == null ? "-" : e.revoked());
            if (e.issued() != null) text.append(' ').append(e.issued());
            text.append('\n');
        }
        PemFiles.writeSecret(dir.resolve(FILE), text.toString());
    }
}
