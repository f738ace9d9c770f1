package io.muster.remote.ssh;

import com.jcraft.jsch.HostKey;
import com.jcraft.jsch.HostKeyRepository;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.UserInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Whether a host's key is trusted, by the known_hosts file (hashed entries and [host]:port entries included, as
 * JSch's KnownHosts reads them). An unknown key is refused, or appended to the file when new keys are accepted; a
 * changed key is always refused. A refusal leaves a one-line reason, with the key's SHA256 fingerprint as OpenSSH
 * shows it, for the connector to report.
 */
final class HostKeyTrust implements HostKeyRepository {
    /** Appends from hosts connecting in parallel must not interleave. */
    private static final Object APPEND = new Object();

    private final HostKeyRepository known;
    private final Path file;
    private final boolean acceptNew;
    private volatile String refusal;

    HostKeyTrust(Path file, boolean acceptNew) throws SshException {
        this.file = file;
        this.acceptNew = acceptNew;
        JSch reader = new JSch();
        try {
            if (Files.exists(file)) reader.setKnownHosts(file.toString());
        } catch (JSchException e) {
            throw new SshException(file + ": cannot read the known hosts: " + e.getMessage(), false, e);
        }
        this.known = reader.getHostKeyRepository();
    }

    /** Why the last check refused the host's key, or null. */
    String refusal() {
        return refusal;
    }

    @Override
    public int check(String host, byte[] key) {
        HostKey offered;
        try {
            offered = new HostKey(host, key);
        } catch (JSchException e) {
            refusal = "the host offers a key of a type muster cannot check (" + e.getMessage() + ")";
            return NOT_INCLUDED;
        }
        List<HostKey> entries = entriesFor(host, offered.getType());
        if (entries.stream().anyMatch(k -> k.getKey().equals(offered.getKey()))) return OK;
        if (!entries.isEmpty()) {
            refusal = changed(host, offered, entries.getFirst());
            return CHANGED;
        }
        if (!acceptNew) {
            refusal = "the " + offered.getType() + " host key of " + host + " is not known (fingerprint " + fingerprint(key)
                    + ", not in " + file + "); check it, then --accept-new-host-keys adds it";
            return NOT_INCLUDED;
        }
        try {
            append(host + " " + offered.getType() + " " + offered.getKey());
        } catch (IOException e) {
            refusal = "cannot add the host key of " + host + " to " + file + ": " + e.getMessage();
            return NOT_INCLUDED;
        }
        return OK;
    }

    /**
     * The plain (unmarked) entries for this host and key type. For [host]:port, only entries naming [host]:port:
     * JSch would also take the port-22 entries of the host, so another key on port 22 would read as a changed key,
     * where OpenSSH sees an unknown one.
     */
    private List<HostKey> entriesFor(String host, String type) {
        List<HostKey> entries = new ArrayList<>(Arrays.asList(known.getHostKey(host, type)));
        if (host.startsWith("[") && host.contains("]:")) {
            List<HostKey> port22 = Arrays.asList(known.getHostKey(host.substring(1, host.indexOf("]:")), type));
            entries.removeIf(k -> port22.stream().anyMatch(p -> p == k));
        }
        entries.removeIf(k -> !k.getMarker().isEmpty());
        return entries;
    }

    private String changed(String host, HostKey offered, HostKey entry) {
        String line = lineOf(entry);
        return "the " + offered.getType() + " host key of " + host + " has CHANGED: it is now " + fingerprint(offered)
                + " where " + file + (line.isEmpty() ? "" : ":" + line) + " has " + fingerprint(entry)
                + " (someone may be intercepting the connection); refused even with --accept-new-host-keys;"
                + " if the host's key was replaced on purpose, remove that line: ssh-keygen -R '" + host + "' -f " + file;
    }

    /** The line number of the entry in the file, or "" when it cannot be told. */
    private String lineOf(HostKey entry) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                List<String> fields = Arrays.asList(lines.get(i).trim().split("\\s+"));
                if (fields.contains(entry.getType()) && fields.contains(entry.getKey())) return Integer.toString(i + 1);
            }
        } catch (IOException e) {
            // the fingerprint and ssh-keygen -R still say which entry
        }
        return "";
    }

    private void append(String line) throws IOException {
        synchronized (APPEND) {
            Path dir = file.toAbsolutePath().getParent();
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            if (!Files.exists(file)) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            byte[] existing = Files.readAllBytes(file);
            boolean needsNewline = existing.length > 0 && existing[existing.length - 1] != '\n';
            Files.writeString(file, (needsNewline ? "\n" : "") + line + "\n", StandardOpenOption.APPEND);
        }
    }

    private static String fingerprint(HostKey key) {
        return fingerprint(Base64.getDecoder().decode(key.getKey()));
    }

    /** OpenSSH's form: SHA256:base64 of the key blob's digest, without padding. */
    static String fingerprint(byte[] blob) {
        try {
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256").digest(blob));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public void add(HostKey hostkey, UserInfo ui) {
        throw new UnsupportedOperationException("HostKeyTrust adds keys itself, in check");
    }

    @Override
    public void remove(String host, String type) {
        throw new UnsupportedOperationException("muster never removes host keys");
    }

    @Override
    public void remove(String host, String type, byte[] key) {
        throw new UnsupportedOperationException("muster never removes host keys");
    }

    @Override
    public String getKnownHostsRepositoryID() {
        return file.toString();
    }

    @Override
    public HostKey[] getHostKey() {
        return known.getHostKey();
    }

    @Override
    public HostKey[] getHostKey(String host, String type) {
        return known.getHostKey(host, type);
    }
}
