package io.muster.engine.resource.archive;

import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.NewFile;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes an archive's entries into a directory only muster can enter yet, through directory descriptors. No
 * entry may leave it: an absolute name, a {@code ..} in a name, a link whose target leads out of it, and an entry
 * written through a link (any link: one the archive made earlier included) are refused, naming the entry. Entries
 * take the resource's owner and group (muster's without), never the archive's, and their modes without the
 * set-user and set-group bits; an entry without a mode (a zip made elsewhere) gets 0644, a directory 0755.
 */
final class Extraction implements ArchiveReader.Entries {
    private static final int DEFAULT_FILE_MODE = 0644;
    private static final int DEFAULT_DIRECTORY_MODE = 0755;
    private static final int KEPT_BITS = 01777;

    private final Directory root;
    private final String source;
    private final int uid;
    private final int gid;
    private int entries;

    Extraction(Directory root, String source, int uid, int gid) {
        this.root = root;
        this.source = source;
        this.uid = uid;
        this.gid = gid;
    }

    int entries() {
        return entries;
    }

    @Override
    public void directory(String name, int mode) throws IOException {
        List<String> parts = parts(name);
        entries++;
        if (parts.isEmpty()) return; // "./": the target itself
        try (Directory in = parentOf(name, parts)) {
            String last = parts.getLast();
            Stat there = in.stat(last);
            if (there != null && !there.directory()) throw refused(name, "is a directory where an earlier entry made a " + there.typeName());
            if (there == null) {
                try (OpenFile made = in.makeDirectory(last)) {
                    attributes(made, mode, DEFAULT_DIRECTORY_MODE);
                }
            } else {
                try (OpenFile existing = in.open(last, there)) {
                    attributes(existing, mode, DEFAULT_DIRECTORY_MODE);
                }
            }
        }
    }

    private void attributes(OpenFile dir, int mode, int fallback) throws IOException {
        if (uid != -1 || gid != -1) dir.chown(uid, gid);
        dir.chmod(bits(mode, fallback));
    }

    private static int bits(int mode, int fallback) {
        return (mode & 0777) == 0 ? fallback : mode & KEPT_BITS;
    }

    @Override
    public void file(String name, int mode, InputStream content) throws IOException {
        List<String> parts = parts(name);
        if (parts.isEmpty()) throw refused(name, "names the target directory itself");
        entries++;
        try (Directory in = parentOf(name, parts)) {
            String last = parts.getLast();
            replaceable(in, name, last);
            try (NewFile file = in.createFile(last)) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = content.read(buffer)) > 0; ) file.write(buffer, n);
                file.setAttributes(bits(mode, DEFAULT_FILE_MODE), uid, gid);
            }
        }
    }

    @Override
    public void link(String name, String target) throws IOException {
        List<String> parts = parts(name);
        if (parts.isEmpty()) throw refused(name, "names the target directory itself");
        if (target.startsWith("/")) throw refused(name, "is a link to the absolute path " + target);
        // '..' only leads: after a name it could climb out of a link ("l/.." where l links to ".")
        int depth = parts.size() - 1;
        boolean climbing = true;
        for (String part : target.split("/")) {
            if (part.isEmpty() || part.equals(".")) continue;
            if (!part.equals("..")) climbing = false;
            else if (!climbing) throw refused(name, "is a link to " + target + ", with '..' after a name");
            else if (--depth < 0) throw refused(name, "is a link to " + target + ", outside the target directory");
        }
        entries++;
        try (Directory in = parentOf(name, parts)) {
            replaceable(in, name, parts.getLast());
            in.makeLink(parts.getLast(), target);
        }
    }

    @Override
    public void other(String name, String what) throws IOException {
        throw refused(name, "is " + what + "; muster extracts files, directories and symbolic links");
    }

    /** What an earlier entry of the same name made goes (the later one wins, as tar has it), unless it is a directory. */
    private void replaceable(Directory in, String name, String last) throws IOException {
        Stat there = in.stat(last);
        if (there == null) return;
        if (there.directory()) throw refused(name, "is a file where an earlier entry made a directory");
        in.unlink(last);
    }

    /** The parts of an entry's name; absolute names and {@code ..} are refused. */
    private List<String> parts(String name) throws IOException {
        if (name.startsWith("/")) throw refused(name, "has an absolute path");
        if (name.indexOf('\0') >= 0) throw refused(name, "has a NUL in its name");
        List<String> parts = new ArrayList<>();
        for (String part : name.split("/")) {
            if (part.isEmpty() || part.equals(".")) continue;
            if (part.equals("..")) throw refused(name, "climbs out with '..'");
            parts.add(part);
        }
        return parts;
    }

    /** The directory an entry goes in, made as needed; a link or file on the way is refused, never followed. */
    private Directory parentOf(String name, List<String> parts) throws IOException {
        Directory at = root.subdirectory(".", root.stat("."));
        try {
            for (String part : parts.subList(0, parts.size() - 1)) {
                Stat st = at.stat(part);
                if (st == null) {
                    try (OpenFile made = at.makeDirectory(part)) {
                        attributes(made, 0, DEFAULT_DIRECTORY_MODE);
                        st = made.stat();
                    }
                }
                if (st.link()) throw refused(name, "goes through the link " + part + " an earlier entry made");
                if (!st.directory()) throw refused(name, "goes through " + part + ", which is not a directory");
                Directory next = at.subdirectory(part, st);
                at.close();
                at = next;
            }
            return at;
        } catch (IOException | RuntimeException e) {
            at.close();
            throw e;
        }
    }

    private IOException refused(String name, String why) {
        return new IOException("archive " + source + ": entry '" + name + "' " + why + "; nothing was extracted");
    }
}
