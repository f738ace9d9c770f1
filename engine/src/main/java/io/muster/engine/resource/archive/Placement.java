package io.muster.engine.resource.archive;

import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.Stat;
import java.io.IOException;
import java.util.List;

/**
 * Moves what was extracted aside into the target directory, which may hold other things already: each entry is
 * renamed into place (a file or link over what is there, in one step), a directory in both is merged. Whatever
 * would not fit (a directory where the archive has a file, or the reverse) is found before anything moves. A
 * link in the target is replaced or removed, never followed.
 */
final class Placement {
    private Placement() {}

    /** Why {@code from} cannot be merged into {@code into} (a path named relative to the target), or null. */
    static String conflict(Directory from, Directory into, String relative) throws IOException {
        for (String name : sorted(from)) {
            Stat mine = from.stat(name);
            Stat there = into.stat(name);
            if (there == null || mine == null) continue;
            if (there.directory() && !mine.directory()) return relative + name + " is a directory where the archive has a " + mine.typeName();
            if (mine.directory() && there.directory()) {
                try (Directory a = from.subdirectory(name, mine); Directory b = into.subdirectory(name, there)) {
                    String deeper = conflict(a, b, relative + name + "/");
                    if (deeper != null) return deeper;
                }
            }
        }
        return null;
    }

    /** Moves every entry of {@code from} into {@code into} (checked by {@link #conflict} first). */
    static void merge(Directory from, Directory into) throws IOException {
        for (String name : sorted(from)) {
            Stat mine = from.stat(name);
            Stat there = into.stat(name);
            if (mine == null) continue;
            if (mine.directory() && there != null && there.directory()) {
                try (Directory a = from.subdirectory(name, mine); Directory b = into.subdirectory(name, there)) {
                    merge(a, b);
                }
                continue;
            }
            if (mine.directory() && there != null) into.unlink(name); // a file or link where the archive has a directory
            from.moveTo(name, into, name);
        }
    }

    private static List<String> sorted(Directory dir) throws IOException {
        List<String> names = dir.list();
        names.sort(null);
        return names;
    }
}
