package io.muster.remote.install;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What {@code muster remote} puts on a host so it can run there without Java: muster's shaded jar and a Java
 * runtime made by jlink for Linux x86_64. Its {@link #digest()} names the remote cache directory, so a host that
 * has this payload already is not sent it again.
 *
 * <p>Hashing a runtime of some 50 MB on every run would cost more than the check saves; so when the runtime holds a
 * listing {@value #RUNTIME_LISTING} in sha256sum's format (written when the runtime is built: {@code <sha256>  <path
 * relative to the runtime>} per file, an optional "./" or binary "*" marker allowed), its digests are taken instead.
 * Files are read through links: the remote gets plain files.
 */
public final class Payload {
    public static final String RUNTIME_LISTING = "muster-runtime.sha256";
    static final String JAR = "muster.jar";
    static final String RUNTIME = "runtime";

    private final Path jar;
    private final Path runtime;
    private List<PayloadFile> files;

    public Payload(Path jar, Path runtime) {
        this.jar = jar;
        this.runtime = runtime;
    }

    public Path jar() {
        return jar;
    }

    public Path runtime() {
        return runtime;
    }

    /**
     * The sha256 (hex) over every file's name, executable bit and sha256, in name order: the same payload has the
     * same digest on every machine and run.
     */
    public String digest() throws IOException {
        MessageDigest digest = sha256();
        for (PayloadFile file : files()) {
            digest.update((file.sha256() + " " + (file.executable() ? "x" : "-") + " " + file.name() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The files to copy, the jar first, then the runtime's by name; computed once. */
    synchronized List<PayloadFile> files() throws IOException {
        if (files != null) return files;
        if (!Files.isRegularFile(jar)) throw new IOException(jar + ": the muster jar is missing");
        if (!Files.isDirectory(runtime)) throw new IOException(runtime + ": the Java runtime directory is missing");
        List<PayloadFile> all = new ArrayList<>();
        all.add(file(jar, JAR, hash(jar)));
        Path listing = runtime.resolve(RUNTIME_LISTING);
        List<PayloadFile> runtimeFiles = Files.isRegularFile(listing) ? listed(listing) : hashed();
        runtimeFiles.sort((a, b) -> a.name().compareTo(b.name()));
        all.addAll(runtimeFiles);
        files = List.copyOf(all);
        return files;
    }

    private List<PayloadFile> hashed() throws IOException {
        List<PayloadFile> result = new ArrayList<>();
        for (String relative : runtimeFiles()) result.add(file(runtime.resolve(relative), RUNTIME + "/" + relative, hash(runtime.resolve(relative))));
        return result;
    }

    /** The runtime's files (through links), relative to it, but for the listing. */
    private Set<String> runtimeFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(runtime)) {
            return walk.filter(Files::isRegularFile).map(p -> runtime.relativize(p).toString())
                    .filter(relative -> !relative.equals(RUNTIME_LISTING)).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private List<PayloadFile> listed(Path listing) throws IOException {
        List<PayloadFile> result = new ArrayList<>();
        List<String> lines = Files.readAllLines(listing, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) continue;
            String[] parts = line.split(" [ *]", 2);
            if (parts.length != 2 || !parts[0].matches("[0-9a-f]{64}")) {
                throw new IOException(listing + ":" + (i + 1) + ":1: expected '<sha256 in hex>  <path>' as sha256sum writes it");
            }
            String relative = parts[1].startsWith("./") ? parts[1].substring(2) : parts[1];
            if (relative.equals(RUNTIME_LISTING)) continue; // a listing made by "sha256sum ... > listing" may name itself
            Path path = runtime.resolve(relative);
            if (!Files.isRegularFile(path)) throw new IOException(listing + ":" + (i + 1) + ":67: " + relative + " is not a file of " + runtime);
            result.add(file(path, RUNTIME + "/" + relative, parts[0]));
        }
        Set<String> unlisted = runtimeFiles();
        result.forEach(file -> unlisted.remove(file.name().substring(RUNTIME.length() + 1)));
        if (!unlisted.isEmpty()) throw new IOException(listing + ": does not list " + String.join(", ", unlisted) + " (a listing older than the runtime?)");
        return result;
    }

    private static PayloadFile file(Path path, String name, String sha256) throws IOException {
        boolean executable = Files.getPosixFilePermissions(path).contains(PosixFilePermission.OWNER_EXECUTE);
        return new PayloadFile(path, name, sha256, executable, Files.size(path));
    }

    private static String hash(Path file) throws IOException {
        MessageDigest digest = sha256();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
