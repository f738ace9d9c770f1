package io.muster.engine.resource.archive;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.PartOfPath;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import io.muster.engine.resource.file.ParentDirectory;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.fs.TrustedDirectories;
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
 * An archive extracted into the directory {@code path}. Without a file to keep it at, it is done when {@code creates} exists
 * or, without it, when this archive (by its sha256) is the one last extracted there (recorded in the state dir).
 * Extracting brings the archive into the state dir (a URL's sha256 must equal {@code checksum} before anything else
 * happens) and extracts it ({@link Unpacking}): a refused entry, a bad checksum or a failed download leaves
 * {@code path} as it was. With a kept file ({@link Kept}), the archive is downloaded to that file, which tells what
 * is done ({@link KeptArchive}).
 *
 * @param parents make {@code path} and the directories above it that are missing ({@code mkdir -p}) before extracting
 */
record ArchiveResource(Path path, ArchiveSource source, String checksum, Path creates, String owner, String group,
                       boolean parents, Kept kept) implements PartOfPath {

    /**
     * Where the archive is kept, if anywhere (owned by the owner and group, 0600).
     *
     * @param file as written (null: not set)
     * @param extract whether it is extracted into {@code path}; without, it is only downloaded, to {@code path}
     * @param cleanup removed once extracted ({@code creates} then tells that it was)
     * @param absent the file is to be removed (what was extracted stays)
     */
    record Kept(Path file, boolean extract, boolean cleanup, boolean absent) {}

    private static final String EXTRACTED = "extracted";
    private static final String DOWNLOAD = "archive.part";
    static final int DIRECTORY_MODE = 0755;

    @Override
    public void validate() throws InvalidResourceException {
        source.validate();
        if (!kept.extract() && kept.file() != null && !kept.file().equals(path)) {
            throw new InvalidResourceException("file", "with extract: false the archive is kept at path (the name); leave file out");
        }
        Path file = keptFile();
        if (file == null && kept.absent()) {
            throw new InvalidResourceException("ensure", "absent removes the archive kept at file: set file (or extract: false, which keeps it at path)");
        }
        if (file == null && source.remote() && checksum == null) {
            throw new InvalidResourceException("checksum", "a URL source requires checksum: the archive's sha256, checked before it is extracted"
                    + " (or file, to keep the archive there)");
        }
        if (kept.cleanup() && (file == null || !kept.extract() || creates == null)) {
            throw new InvalidResourceException("cleanup", "cleanup removes the kept file once it is extracted: it needs file, extraction and"
                    + " creates, which then tells that it was");
        }
        if (file != null && file.getParent() == null) throw new InvalidResourceException("file", "cannot keep the archive at /");
        if (kept.extract() && path.getParent() == null) throw new InvalidResourceException("path", "cannot extract into /");
    }

    /** Where the archive is kept: {@code file}, or with {@code extract: false} {@code path}; null when it is not. */
    Path keptFile() {
        return kept.file() != null ? kept.file() : kept.extract() ? null : path;
    }

    /**
     * After the directory itself when it is managed (else its nearest managed ancestor), the kept file's directory,
     * and its owner and group.
     */
    @Override
    public List<List<String>> wants() {
        List<List<String>> wants = new ArrayList<>(PartOfPath.super.wants());
        if (keptFile() != null && !keptFile().equals(path)) {
            List<String> above = new ArrayList<>();
            for (Path p = keptFile().getParent(); p != null; p = p.getParent()) above.add(Edgeable.pathUid(p));
            wants.add(above);
        }
        if (owner != null) wants.add(List.of("user:" + owner));
        if (group != null) wants.add(List.of("group:" + group));
        return wants;
    }

    /** The directory, {@code creates}, the kept file, and a local source: a new archive there is extracted again. */
    @Override
    public void watch(Watcher watcher) throws Exception {
        watcher.hold(watcher.watchPath(path, watcher::changed));
        if (creates != null) watcher.hold(watcher.watchPath(creates, watcher::changed));
        if (keptFile() != null && !keptFile().equals(path)) watcher.hold(watcher.watchPath(keptFile(), watcher::changed));
        if (!source.remote()) watcher.hold(watcher.watchPath(source.file(), watcher::changed));
        watcher.ready();
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        if (keptFile() != null) return new KeptArchive(this).checkApply(apply);
        if (createsExists()) return Result.STABLE;
        String wanted = checksum != null ? checksum : source.remote() ? null : source.sha256();
        byte[] recorded = AtomicFiles.readPrivate(context.statePath().resolve(EXTRACTED));
        if (creates == null && recorded != null && new String(recorded, StandardCharsets.UTF_8).equals(wanted)
                && Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            return Result.STABLE;
        }
        Result change = Result.changed(List.of(Change.of("extracted", null, source.toString())));
        if (!apply) return change;

        int uid = uid();
        int gid = gid();
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
            int entries = extract(download, source.toString(), uid, gid);
            AtomicFiles.writePrivate(context.stateDir().resolve(EXTRACTED), sha256.getBytes(StandardCharsets.UTF_8));
            return change.withMessage(entries + " entries");
        } finally {
            Files.deleteIfExists(download);
        }
    }

    boolean createsExists() {
        return creates != null && Files.exists(creates, LinkOption.NOFOLLOW_LINKS);
    }

    int uid() throws IOException {
        return owner == null ? -1 : Users.uid(owner);
    }

    int gid() throws IOException {
        return group == null ? -1 : Users.gid(group);
    }

    /** Extracts {@code archive} into {@code path} (made first with {@code parents}); returns the number of entries. */
    int extract(Path archive, String name, int uid, int gid) throws IOException {
        if (parents) ParentDirectory.makeMissing(new TrustedDirectories(0), path, uid, DIRECTORY_MODE);
        return Unpacking.extract(path, archive, name, uid, gid);
    }
}
