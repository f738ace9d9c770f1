package io.muster.engine.compile;

import io.muster.engine.graph.Bundle;
import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.Property;
import io.muster.engine.util.FileReads;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The files of the bundle a graph reads when it runs: each property its kind marks as naming one (a file's
 * {@code source}), and each literal {@code file('…')} of a run-time template, when it lies in the bundle and is
 * a regular file now (a {@code source} directory: each regular file below it). One missing now is left out:
 * running the graph reports it, as it would without a bundle.
 * A file outside the bundle (an absolute {@code source}) is the running host's own, and does not travel.
 */
public final class BundleFiles {
    private BundleFiles() {}

    /**
     * The bundle rooted at {@code root}, with the files {@code vertices} read when they run and their manifests'
     * directories; each file looked for in the bundle, there or not, is noted in {@code reads}.
     */
    static Bundle of(Path root, List<Vertex> vertices, FileReads reads) {
        Map<String, String> files = new TreeMap<>();
        Set<String> directories = new TreeSet<>();
        for (Vertex v : vertices) {
            if (!v.scope().directory().isEmpty()) directories.add(v.scope().directory());
            for (Path file : read(v)) add(root, file, files, reads);
        }
        return new Bundle(root, files, directories);
    }

    /** The files {@code v} alone reads when it runs (absolute, normal), in the bundle or not. */
    private static List<Path> read(Vertex v) {
        Path directory = v.params().directory();
        List<Path> read = new ArrayList<>();
        v.params().values().forEach((name, value) -> {
            Property property = v.kind().schema().property(name);
            if (property != null && property.bundleFile() && value instanceof String path) read.add(directory.resolve(path));
        });
        for (String path : ScopeTables.runTimeReads(v).files()) read.add(directory.resolve(path));
        return read.stream().map(file -> file.toAbsolutePath().normalize()).toList();
    }

    /**
     * The bundle files {@code v} (and the vertices grouped into it) reads when it runs, whose content, as
     * {@code bundle} records it: a resource whose parameters are the same but whose {@code source} changed is
     * not the same resource (a graph swap must apply the new content). Files outside the bundle are left out.
     */
    public static Map<String, String> readBy(Vertex v, Bundle bundle) {
        Map<String, String> read = new TreeMap<>();
        for (Vertex member : v.declared()) {
            for (Path file : read(member)) {
                if (!file.startsWith(bundle.root())) continue;
                String relative = ScopeTables.relative(bundle.root(), file);
                read.put(relative, bundle.files().getOrDefault(relative, ""));
                bundle.files().forEach((name, hash) -> { // a source directory: the files below it
                    if (name.startsWith(relative + "/")) read.put(name, hash);
                });
            }
        }
        return read;
    }

    private static void add(Path root, Path file, Map<String, String> files, FileReads reads) {
        if (!file.startsWith(root)) return;
        reads.read(file);
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) { // a source tree: the files below it
            try (Stream<Path> below = Files.walk(file)) {
                for (Path each : below.toList()) {
                    // a directory is noted as what it lists: a file added anywhere in the tree is a new input
                    if (Files.isDirectory(each, LinkOption.NOFOLLOW_LINKS)) reads.read(each);
                    else if (Files.isRegularFile(each, LinkOption.NOFOLLOW_LINKS)) add(root, each, files, reads);
                }
            } catch (IOException | UncheckedIOException e) {
                // unreadable now: running the graph says why
            }
            return;
        }
        if (!Files.isRegularFile(file)) return;
        String relative = ScopeTables.relative(root, file);
        if (files.containsKey(relative)) return;
        String hash = sha256(file);
        if (hash != null) files.put(relative, hash);
    }

    /** The hex sha256 of {@code file}'s content; null when it cannot be read now (running the graph will say why). */
    public static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 << 10];
            for (int n; (n = in.read(buffer)) > 0; ) digest.update(buffer, 0, n);
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
