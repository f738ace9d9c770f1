package io.muster.engine.resource.file;

import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.TrustedDirectories;
import io.muster.engine.util.fs.TrustedPath;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

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

    /** The name of {@code path} in its parent ({@code .} for {@code /}). */
    public static String name(Path path) {
        return path.getFileName() == null ? "." : path.getFileName().toString();
    }
}
