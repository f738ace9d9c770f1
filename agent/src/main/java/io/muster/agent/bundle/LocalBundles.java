package io.muster.agent.bundle;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.engine.util.FileTrees;
import io.muster.engine.util.fs.TrustedPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;

/**
 * Bundle files on local disk: each content fetched once from the fleet's {@link ContentStore} into {@code
 * blobs/<sha256>}, and laid out as the directory trees graphs read them from ({@code trees/<sha256 of the
 * listing>/<path>}), so a graph decoded on an agent or compiled on a coordinator finds its {@code source}
 * files where its manifest had them. A tree appears whole (built aside, then renamed) or not at all, and is
 * never changed once there: trees are named by what they hold.
 *
 * <p>The root is a private state directory of muster's (0700), so nothing in it is another user's to swap.
 */
public final class LocalBundles {
    private final Path blobs;
    private final Path trees;
    private final ContentStore store;
    /** Where a content may be stored in etcd, tried in order: an agent reads blobs only, a coordinator manifests too. */
    private final List<Function<String, ByteSequence>> places;

    /** Bundles of the files every host reads ({@link Keys#blob}). */
    public LocalBundles(Path root, ContentStore store) throws IOException {
        this(root, store, List.of(Keys::blob));
    }

    /** Bundles of every file of a deploy: the blobs, and the manifests and data only coordinators read. */
    public static LocalBundles withManifests(Path root, ContentStore store) throws IOException {
        return new LocalBundles(root, store, List.of(Keys::blob, Keys::manifest));
    }

    private LocalBundles(Path root, ContentStore store, List<Function<String, ByteSequence>> places) throws IOException {
        this.places = places;
        TrustedPath.createPrivate(root).close();
        this.blobs = root.resolve("blobs");
        this.trees = root.resolve("trees");
        Files.createDirectories(blobs);
        Files.createDirectories(trees);
        this.store = store;
    }

    /**
     * The directory holding {@code files} (bundle-relative path → sha256 of its content), fetching what is
     * not on disk yet.
     *
     * @throws IOException when a path is not a plain relative one, a content is missing from the store or is
     *         corrupt, or the disk fails
     */
    public Path tree(Map<String, String> files) throws IOException, EtcdUnreachableException {
        return tree(files, Set.of());
    }

    /**
     * As {@link #tree(Map)}, with {@code directories} (bundle-relative) there too, empty when no file is in
     * them: a decoded graph runs its child manifests' commands in their directories.
     */
    public Path tree(Map<String, String> files, Set<String> directories) throws IOException, EtcdUnreachableException {
        return tree(files, directories, Set.of());
    }

    /**
     * As {@link #tree(Map, Set)}, the files named in {@code executables} executable (0755),
     * as they were in the deployed bundle: a script a manifest runs keeps its mode.
     */
    public Path tree(Map<String, String> files, Set<String> directories, Set<String> executables) throws IOException, EtcdUnreachableException {
        Map<String, String> sorted = new TreeMap<>(files);
        sorted.keySet().forEach(LocalBundles::checkRelative);
        Set<String> dirs = new TreeSet<>(directories);
        dirs.forEach(LocalBundles::checkRelative);
        Set<String> x = new TreeSet<>(executables);
        x.retainAll(sorted.keySet());
        Path tree = trees.resolve(ContentStore.sha256(listing(sorted, dirs, x)));
        if (Files.isDirectory(tree)) return tree;
        Path building = trees.resolve(".building-" + UUID.randomUUID());
        try {
            for (Map.Entry<String, String> file : sorted.entrySet()) {
                Path target = building.resolve(file.getKey());
                Files.createDirectories(target.getParent());
                if (x.contains(file.getKey())) {
                    // a copy of its own: the blob is shared by links, and its mode with them
                    Files.copy(blob(file.getValue()), target);
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
                } else {
                    link(blob(file.getValue()), target);
                }
            }
            for (String dir : dirs) Files.createDirectories(building.resolve(dir));
            Files.createDirectories(building);
            Files.move(building, tree, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException raced) {
            // another caller built the same tree first: theirs holds the same files
        } finally {
            FileTrees.delete(building);
        }
        return tree;
    }

    /** The local copy of the content named {@code sha256}, fetched from the store when missing. */
    public Path blob(String sha256) throws IOException, EtcdUnreachableException {
        Path blob = blobs.resolve(sha256);
        if (Files.isRegularFile(blob)) return blob;
        byte[] content = null;
        try {
            for (int i = 0; i < places.size() && content == null; i++) content = store.get(places.get(i).apply(sha256)).orElse(null);
        } catch (ContentStore.CorruptValueException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (content == null) throw new IOException("bundle file " + sha256 + " is missing from etcd");
        Path temp = blobs.resolve(".fetching-" + UUID.randomUUID());
        Files.write(temp, content);
        Files.move(temp, blob, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return blob;
    }

    private static void link(Path blob, Path target) throws IOException {
        try {
            Files.createLink(target, blob); // one copy on disk however many trees hold it
        } catch (UnsupportedOperationException | IOException e) {
            Files.copy(blob, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static byte[] listing(Map<String, String> sorted, Set<String> directories, Set<String> executables) {
        StringBuilder out = new StringBuilder();
        sorted.forEach((path, sha) -> out.append(path).append('\0').append(sha).append(executables.contains(path) ? "\0x" : "").append('\n'));
        directories.forEach(dir -> out.append(dir).append("/\0\n")); // no file's line ends so: a tree of no directories keeps its name
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A bundle path is '/'-separated and stays inside the bundle: a pointer must never make us write elsewhere. */
    static String checkRelative(String path) {
        boolean plain = !path.isEmpty() && !path.startsWith("/") && !path.contains("\\") && !path.contains("\0");
        if (plain) {
            for (String part : path.split("/", -1)) {
                if (part.isEmpty() || part.equals(".") || part.equals("..")) plain = false;
            }
        }
        if (!plain) throw new IllegalArgumentException("not a bundle-relative path: '" + path + "'");
        return path;
    }
}
