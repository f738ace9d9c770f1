package io.muster.engine.resource.file;

import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.TrustedDirectories;
import io.muster.engine.util.fs.TrustedPath;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The directory a managed path is in, opened as {@link TrustedPath} allows; shared by the kinds that write files. */
public final class ParentDirectory {
    private ParentDirectory() {}

    /** The open parent of {@code path} ({@code /} for {@code /} itself), or null when it does not exist yet. */
    public static Directory open(Path path, int owner) throws IOException {
        return open(new TrustedDirectories(0), path, owner);
    }

    /** As {@link #open(Path, int)}, through the directories the run keeps open. */
    public static Directory open(TrustedDirectories kept, Path path, int owner) throws IOException {
        try {
            return kept.open(path.getParent() == null ? path : path.getParent(), owner);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** {@code dir}, which must exist now that something is to be made in it. */
    public static Directory require(Directory dir, Path path) throws IOException {
        if (dir == null) {
            throw new IOException("parent directory " + path.getParent() + " does not exist (manage it with a file resource, ensure: directory)");
        }
        return dir;
    }

    /**
     * Makes {@code dir} and the directories above it that are missing, as {@code mkdir -p} makes them: muster's,
     * mode {@code mode}, the topmost first, each in a parent opened as {@link TrustedDirectories} allows.
     */
    public static void makeMissing(TrustedDirectories kept, Path dir, int owner, int mode) throws IOException {
        List<Path> missing = new ArrayList<>(); // the deepest first
        for (Path at = dir; at != null && at.getParent() != null; at = at.getParent()) {
            try (Directory above = open(kept, at, owner)) {
                if (above != null && above.stat(name(at)) != null) break;
                missing.add(at);
            }
        }
        for (Path at : missing.reversed()) {
            try (Directory above = require(open(kept, at, owner), at); OpenFile made = above.makeDirectory(name(at))) {
                made.chmod(mode);
            }
        }
    }

    /** The name of {@code path} in its parent ({@code .} for {@code /}). */
    public static String name(Path path) {
        return path.getFileName() == null ? "." : path.getFileName().toString();
    }
}
