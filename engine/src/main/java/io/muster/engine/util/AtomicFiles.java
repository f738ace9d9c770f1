package io.muster.engine.util;

import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.TempFile;
import io.muster.engine.util.fs.TrustedPath;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * How muster writes a file: a temp file in the same directory, created 0600 without following links, its
 * owner and mode set on its descriptor, synced, renamed over the target, and the directory synced so the
 * rename survives a power cut. A reader never sees a half-written file, and no one else can open it while it
 * is written.
 */
public final class AtomicFiles {
    private AtomicFiles() {}

    /** Replaces (or creates) {@code name} in {@code dir}; uid or gid -1 is muster's own. */
    public static void replace(Directory dir, String name, byte[] content, int mode, int uid, int gid) throws IOException {
        try (TempFile temp = dir.createTemp(name)) {
            temp.write(content);
            temp.setAttributes(mode, uid, gid);
            temp.commit();
        }
    }

    /** A state file's content (made 0600 if it was not, see {@link OpenFile#state}), or null when there is none. */
    public static byte[] readPrivate(Path file) throws IOException {
        try (OpenFile opened = OpenFile.state(file)) {
            return opened.readAll();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** A state file: muster's alone (0600), in a directory made 0700. */
    public static void writePrivate(Path file, byte[] content) throws IOException {
        try (Directory dir = TrustedPath.createPrivate(file.getParent())) {
            replace(dir, file.getFileName().toString(), content, 0600, -1, -1);
        }
    }
}
