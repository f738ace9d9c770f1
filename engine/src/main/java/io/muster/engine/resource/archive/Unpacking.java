package io.muster.engine.resource.archive;

import io.muster.engine.resource.file.ParentDirectory;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An archive file extracted into the directory {@code path}: into a new directory beside it only muster can enter
 * ({@link Extraction}), then moved into place, a new {@code path} in one rename, an existing one merged into
 * ({@link Placement}). A refused entry leaves {@code path} as it was.
 */
final class Unpacking {
    private static final int DEFAULT_DIRECTORY_MODE = 0755;

    private Unpacking() {}

    /** Extracts {@code archive} (named {@code source} in messages) into {@code path}; returns the number of entries. */
    static int extract(Path path, Path archive, String source, int uid, int gid) throws IOException {
        String name = ParentDirectory.name(path);
        try (Directory parent = ParentDirectory.require(ParentDirectory.open(path, uid), path)) {
            Stat target = parent.stat(name);
            if (target != null && !target.directory()) throw new IOException(path + " is a " + target.typeName() + ", not a directory to extract into");
            String temp = parent.makeTempDirectory(name);
            try {
                Stat aside = parent.stat(temp);
                int entries;
                try (Directory into = parent.subdirectory(temp, aside)) {
                    Extraction extraction = new Extraction(into, source, uid, gid);
                    ArchiveReader.read(archive, source, extraction);
                    entries = extraction.entries();
                    if (target != null) {
                        place(path, source, parent, name, target, into);
                        return entries;
                    }
                }
                try (OpenFile made = parent.open(temp, aside)) {
                    if (uid != -1 || gid != -1) made.chown(uid, gid);
                    made.chmod(DEFAULT_DIRECTORY_MODE);
                }
                parent.moveTo(temp, parent, name);
                return entries;
            } finally {
                parent.delete(temp); // what is left of it: nothing once it moved into place
            }
        }
    }

    private static void place(Path path, String source, Directory parent, String name, Stat target, Directory extracted) throws IOException {
        try (Directory existing = parent.subdirectory(name, target)) {
            String conflict = Placement.conflict(extracted, existing, path + "/");
            if (conflict != null) throw new IOException("archive " + source + ": " + conflict + "; nothing was extracted");
            Placement.merge(extracted, existing);
        }
    }
}
