package io.muster.engine.resource.archive;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.file.ParentDirectory;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import io.muster.engine.util.fs.TempFile;
import io.muster.engine.util.fs.Users;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * An archive downloaded to a file that is kept (puppet-archive's and Choria CCM's archive): that file, with
 * {@code creates}, tells what is done. It is done, present, when {@code creates} exists (if set), the file exists
 * (unless {@code cleanup}), and an existing file has the owner, group and (if set) checksum asked for; absent, when
 * there is no file. Converging downloads the file unless it exists with the checksum asked for (into a temp file
 * beside it, checked, then renamed over it), extracts it when it was downloaded or {@code creates} is missing,
 * then removes it with {@code cleanup}; then it must be done, else an error names what is not.
 */
final class KeptArchive {
    /** The kept file's mode: a temp file's, as CCM's download leaves it. */
    private static final int FILE_MODE = 0600;

    private final ArchiveResource archive;
    private final Path file;

    KeptArchive(ArchiveResource archive) {
        this.archive = archive;
        this.file = archive.keptFile();
    }

    /** What is at the file's path (null: nothing) and, for a regular file whose checksum is asked for, its sha256. */
    private record Found(Stat stat, String sha256) {
        boolean exists() {
            return stat != null;
        }
    }

    Result checkApply(boolean apply) throws Exception {
        Found now = find();
        if (archive.kept().absent()) return absent(now, apply);
        String unmet = unmet(now);
        if (unmet == null) return Result.STABLE;

        boolean download = !(now.exists() && archive.checksum() != null && archive.checksum().equals(now.sha256()));
        boolean extract = archive.kept().extract() && (download || !archive.createsExists());
        List<Change> ownership = download ? List.of() : ownership(now);
        List<Change> changes = new ArrayList<>(ownership);
        if (download) changes.add(Change.of("downloaded", !now.exists() ? null : now.sha256() != null ? "sha256:" + now.sha256() : "present", archive.source()));
        if (extract) changes.add(Change.of("extracted", null, file));
        if (archive.kept().cleanup()) changes.add(Change.of("file", file, null));
        if (changes.isEmpty()) throw unreached("present", unmet); // nothing it could do would bring it about
        Result result = Result.changed(changes);
        if (!apply) return result;

        int uid = archive.uid();
        int gid = archive.gid();
        if (download) download(uid, gid);
        else if (!ownership.isEmpty()) chown(now, uid, gid);
        int entries = extract ? archive.extract(file, file.toString(), uid, gid) : -1;
        if (archive.kept().cleanup()) remove();
        String still = unmet(find());
        if (still != null) throw unreached("present", still);
        return entries < 0 ? result : result.withMessage(entries + " entries");
    }

    private Result absent(Found now, boolean apply) throws IOException {
        if (!now.exists()) return Result.STABLE;
        if (apply) {
            remove();
            if (find().exists()) throw unreached("absent", "archive still exists");
        }
        return Result.changed(List.of(Change.of("file", file, null)));
    }

    private static IOException unreached(String ensure, String why) {
        return new IOException("failed to reach desired state: " + ensure + ": " + why);
    }

    /** Why the archive is not as asked (as CCM words it), or null when it is. */
    private String unmet(Found now) {
        if (archive.creates() != null && !archive.createsExists()) return "creates path missing: " + archive.creates();
        if (archive.kept().cleanup() && archive.creates() == null && now.exists()) return "archive file still present despite cleanup=true";
        if (!archive.kept().cleanup() && !now.exists()) return "archive file missing";
        if (!now.exists()) return null;
        if (!now.stat().regular()) return file + " is a " + now.stat().typeName() + ", not an archive file";
        if (archive.owner() != null && !isUser(archive.owner(), now.stat().uid())) {
            return "owner mismatch: state=" + Users.userName(now.stat().uid()) + " requested=" + archive.owner();
        }
        if (archive.group() != null && !isGroup(archive.group(), now.stat().gid())) {
            return "group mismatch: state=" + Users.groupName(now.stat().gid()) + " requested=" + archive.group();
        }
        if (archive.checksum() != null && !archive.checksum().equals(now.sha256())) {
            return "checksum mismatch: state=" + now.sha256() + " requested=" + archive.checksum();
        }
        return null;
    }

    /** The owner and group an existing file with the right content lacks. */
    private List<Change> ownership(Found now) {
        if (!now.exists() || !now.stat().regular()) return List.of();
        List<Change> changes = new ArrayList<>();
        if (archive.owner() != null && !isUser(archive.owner(), now.stat().uid())) {
            changes.add(Change.of("owner", Users.userName(now.stat().uid()), archive.owner()));
        }
        if (archive.group() != null && !isGroup(archive.group(), now.stat().gid())) {
            changes.add(Change.of("group", Users.groupName(now.stat().gid()), archive.group()));
        }
        return changes;
    }

    private static boolean isUser(String name, int uid) {
        try {
            return Users.uid(name) == uid;
        } catch (IOException unknown) {
            return false;
        }
    }

    private static boolean isGroup(String name, int gid) {
        try {
            return Users.gid(name) == gid;
        } catch (IOException unknown) {
            return false;
        }
    }

    private Found find() throws IOException {
        try (Directory dir = ParentDirectory.open(file, -1)) {
            if (dir == null) return new Found(null, null);
            Stat stat = dir.stat(ParentDirectory.name(file));
            if (stat == null || !stat.regular() || archive.checksum() == null) return new Found(stat, null);
            MessageDigest digest = ArchiveSource.sha256Digest();
            try (OpenFile opened = dir.open(ParentDirectory.name(file), stat)) {
                opened.digest(digest);
            }
            return new Found(stat, HexFormat.of().formatHex(digest.digest()));
        }
    }

    /** Downloads into a temp file beside the kept one, checks its checksum, then renames it over the file. */
    private void download(int uid, int gid) throws IOException, InterruptedException {
        try (Directory dir = ParentDirectory.require(ParentDirectory.open(file, uid), file);
             TempFile temp = dir.createTemp(ParentDirectory.name(file))) {
            String sha256 = archive.source().copyTo(new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    temp.write(new byte[] {(byte) b});
                }

                @Override
                public void write(byte[] bytes, int offset, int length) throws IOException {
                    if (offset == 0) temp.write(bytes, length);
                    else temp.write(Arrays.copyOfRange(bytes, offset, offset + length));
                }
            });
            if (archive.checksum() != null && !archive.checksum().equals(sha256)) {
                throw new IOException("checksum mismatch for " + archive.source() + ": expected sha256 " + archive.checksum() + ", got "
                        + sha256 + "; " + file + " was left as it was");
            }
            temp.setAttributes(FILE_MODE, uid, gid);
            temp.commit();
        }
    }

    private void chown(Found now, int uid, int gid) throws IOException {
        try (Directory dir = ParentDirectory.require(ParentDirectory.open(file, uid), file);
             OpenFile opened = dir.open(ParentDirectory.name(file), now.stat())) {
            opened.chown(uid, gid);
        }
    }

    private void remove() throws IOException {
        try (Directory dir = ParentDirectory.open(file, -1)) {
            if (dir != null) dir.unlink(ParentDirectory.name(file));
        }
    }
}
