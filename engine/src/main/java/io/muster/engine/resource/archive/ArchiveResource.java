package io.muster.engine.resource.archive;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.PartOfPath;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import io.muster.engine.resource.file.ParentDirectory;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import io.muster.engine.util.fs.Users;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An archive extracted into the directory {@code path}. It is done when {@code creates} exists or, without it,
 * when this archive (by its sha256) is the one last extracted there (recorded in the state dir). Extracting
 * brings the archive into the state dir (a URL's sha256 must equal {@code checksum} before anything else
 * happens), extracts it into a new directory beside {@code path} only muster can enter, then moves it into place
 * ({@link Placement}): a refused entry, a bad checksum or a failed download leaves {@code path} as it was.
 */
record ArchiveResource(Path path, ArchiveSource source, String checksum, Path creates, String owner, String group)
        implements PartOfPath {

    private static final String EXTRACTED = "extracted";
    private static final String DOWNLOAD = "archive.part";
    private static final int DEFAULT_DIRECTORY_MODE = 0755;

    @Override
    public void validate() throws InvalidResourceException {
        if (source.remote() && checksum == null) {
            throw new InvalidResourceException("checksum", "a URL source requires checksum: the archive's sha256, checked before it is extracted");
        }
        if (checksum != null && !checksum.matches("[0-9a-f]{64}")) {
            throw new InvalidResourceException("checksum", "expected a sha256 of 64 hex digits (optionally after 'sha256:'), got '" + checksum + "'");
        }
        if (path.getParent() == null) throw new InvalidResourceException("path", "cannot extract into /");
    }

    /** After the directory itself when it is managed (else its nearest managed ancestor), and its owner and group. */
    @Override
    public List<List<String>> wants() {
        List<List<String>> wants = new ArrayList<>(PartOfPath.super.wants());
        if (owner != null) wants.add(List.of("user:" + owner));
        if (group != null) wants.add(List.of("group:" + group));
        return wants;
    }

    /** The directory, {@code creates}, and a local source: a new archive there is extracted again. */
    @Override
    public void watch(Watcher watcher) throws Exception {
        watcher.hold(watcher.watchPath(path, watcher::changed));
        if (creates != null) watcher.hold(watcher.watchPath(creates, watcher::changed));
        if (!source.remote()) watcher.hold(watcher.watchPath(source.file(), watcher::changed));
        watcher.ready();
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        if (creates != null && Files.exists(creates, LinkOption.NOFOLLOW_LINKS)) return Result.STABLE;
        String wanted = checksum != null ? checksum : source.remote() ? null : source.sha256();
        byte[] recorded = AtomicFiles.readPrivate(context.statePath().resolve(EXTRACTED));
        if (creates == null && recorded != null && new String(recorded, StandardCharsets.UTF_8).equals(wanted)
                && Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            return Result.STABLE;
        }
        Result change = Result.changed(List.of(Change.of("extracted", null, source.toString())));
        if (!apply) return change;

        int uid = owner == null ? -1 : Users.uid(owner);
        int gid = group == null ? -1 : Users.gid(group);
        Path download = context.stateDir().resolve(DOWNLOAD);
        try {
            String sha256;
            try (OutputStream out = Files.newOutputStream(download)) {
                sha256 = source.copyTo(out);
            }
            if (checksum != null && !checksum.equals(sha256)) {
                throw new IOException("checksum mismatch for " + source + ": expected sha256 " + checksum + ", got " + sha256
                        + "; nothing was extracted");
            }
            int entries = extract(download, uid, gid);
            AtomicFiles.writePrivate(context.stateDir().resolve(EXTRACTED), sha256.getBytes(StandardCharsets.UTF_8));
            return change.withMessage(entries + " entries");
        } finally {
            Files.deleteIfExists(download);
        }
    }

    /** Extracts aside and moves into place; returns the number of entries. */
    private int extract(Path archive, int uid, int gid) throws IOException {
        String name = ParentDirectory.name(path);
        try (Directory parent = ParentDirectory.require(ParentDirectory.open(path, uid), path)) {
            Stat target = parent.stat(name);
            if (target != null && !target.directory()) throw new IOException(path + " is a " + target.typeName() + ", not a directory to extract into");
            String temp = parent.makeTempDirectory(name);
            try {
                Stat aside = parent.stat(temp);
                int entries;
                try (Directory into = parent.subdirectory(temp, aside)) {
                    Extraction extraction = new Extraction(into, source.toString(), uid, gid);
                    ArchiveReader.read(archive, source.toString(), extraction);
                    entries = extraction.entries();
                    if (target != null) {
                        place(parent, name, target, into);
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

    private void place(Directory parent, String name, Stat target, Directory extracted) throws IOException {
        try (Directory existing = parent.subdirectory(name, target)) {
            String conflict = Placement.conflict(extracted, existing, path + "/");
            if (conflict != null) throw new IOException("archive " + source + ": " + conflict + "; nothing was extracted");
            Placement.merge(extracted, existing);
        }
    }
}
