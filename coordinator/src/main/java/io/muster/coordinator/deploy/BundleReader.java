package io.muster.coordinator.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Reads what {@code muster deploy DIR|FILE} ships. FILE: its directory is the bundle and FILE the root
 * manifest; DIR: the bundle is DIR and its root manifest {@value #DEFAULT_MANIFEST}. The bundle is read
 * recursively, leaving out {@code .git} and what {@code .musterignore} lists ({@link IgnoreRules}). A symbolic
 * link is followed when its target stays inside the bundle (its files are shipped under the link's path too),
 * else left out with a warning: a deploy must not ship files from elsewhere on the deploying host; a link to a
 * directory that holds it is left out too. Other special files (FIFOs, sockets, devices) are left out
 * with a warning too.
 */
public final class BundleReader {
    public static final String DEFAULT_MANIFEST = "site.yaml";
    public static final long DEFAULT_MAX_BYTES = 64L << 20;

    private final long maxBytes;
    private final Consumer<String> warnings;

    /**
     * @param maxBytes the most a bundle may hold ({@code --max-bundle})
     * @param warnings where to say what was left out and why
     */
    public BundleReader(long maxBytes, Consumer<String> warnings) {
        if (maxBytes < 1) throw new IllegalArgumentException("--max-bundle: expected a positive size, got " + maxBytes);
        this.maxBytes = maxBytes;
        this.warnings = warnings;
    }

    public Bundle read(Path given) throws DeployException {
        Path target = given.toAbsolutePath().normalize();
        if (!Files.exists(target)) throw new DeployException(given + ": no such file or directory");
        Path root;
        String manifest;
        if (Files.isDirectory(target)) {
            root = real(target);
            manifest = DEFAULT_MANIFEST;
            if (!Files.isRegularFile(root.resolve(manifest))) {
                throw new DeployException(given + ": no " + DEFAULT_MANIFEST + " in this directory (name the root manifest: muster deploy "
                        + given + "/FILE.yaml)");
            }
        } else if (Files.isRegularFile(target)) {
            root = real(target.getParent());
            manifest = target.getFileName().toString();
        } else {
            throw new DeployException(given + ": expected a manifest file or a directory holding " + DEFAULT_MANIFEST);
        }
        IgnoreRules ignore = IgnoreRules.of(root);
        if (ignore.ignores(Path.of(manifest), false)) {
            throw new DeployException(root.resolve(manifest) + ": the root manifest is left out by " + root.resolve(IgnoreRules.FILE));
        }
        Walk walk = new Walk(root, ignore);
        walk.directory(root, Path.of(""));
        List<Bundle.File> files = new ArrayList<>(walk.files);
        files.sort(Comparator.comparing(Bundle.File::path));
        return new Bundle(root, manifest, files);
    }

    private static Path real(Path path) throws DeployException {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            throw new DeployException(path + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /** One reading of a bundle's tree: what it found, how many bytes, which directories it has been in. */
    private final class Walk {
        private final Path root;
        private final IgnoreRules ignore;
        private final List<Bundle.File> files = new ArrayList<>();
        private final Set<Path> ancestors = new HashSet<>(); // the real directories being read, outermost first
        private long bytes;

        Walk(Path root, IgnoreRules ignore) {
            this.root = root;
            this.ignore = ignore;
        }

        /** @param real the directory's real path; {@code relative} where it is in the bundle */
        void directory(Path real, Path relative) throws DeployException {
            if (!ancestors.add(real)) {
                warnings.accept(root.resolve(relative) + ": left out, a symbolic link to a directory that holds it");
                return;
            }
            List<Path> entries;
            try (Stream<Path> list = Files.list(real)) {
                entries = list.sorted().toList();
            } catch (IOException e) {
                throw new DeployException(root.resolve(relative) + ": cannot read the directory (" + e.getMessage() + ")");
            }
            for (Path entry : entries) entry(entry, relative.resolve(entry.getFileName().toString()));
            ancestors.remove(real);
        }

        private void entry(Path path, Path relative) throws DeployException {
            Path shown = root.resolve(relative);
            Path real = path;
            if (Files.isSymbolicLink(path)) {
                try {
                    real = path.toRealPath();
                } catch (NoSuchFileException e) {
                    warnings.accept(shown + ": left out, a symbolic link to nothing");
                    return;
                } catch (IOException e) {
                    throw new DeployException(shown + ": cannot follow the symbolic link (" + e.getMessage() + ")");
                }
                if (!real.startsWith(root)) {
                    warnings.accept(shown + ": left out, a symbolic link out of the bundle (to " + real + ")");
                    return;
                }
            }
            boolean directory = Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS);
            if (ignore.ignores(relative, directory)) return;
            if (directory) {
                directory(real, relative);
            } else if (Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
                file(real, relative, shown);
            } else {
                warnings.accept(shown + ": left out, not a regular file or directory");
            }
        }

        private void file(Path real, Path relative, Path shown) throws DeployException {
            try {
                long size = Files.size(real);
                bytes += size;
                if (bytes > maxBytes) {
                    throw new DeployException(root + ": the bundle is over --max-bundle (" + maxBytes + " bytes) at " + shown
                            + "; list what it need not ship in " + root.resolve(IgnoreRules.FILE));
                }
                String path = relative.toString().replace(java.io.File.separatorChar, '/');
                files.add(new Bundle.File(path, real, sha256(real), size, executable(real)));
            } catch (IOException e) {
                throw new DeployException(shown + ": cannot read (" + e.getMessage() + ")");
            }
        }
    }

    private static boolean executable(Path file) throws IOException {
        return Files.getPosixFilePermissions(file).contains(PosixFilePermission.OWNER_EXECUTE);
    }

    static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) digest.update(buffer, 0, n);
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
