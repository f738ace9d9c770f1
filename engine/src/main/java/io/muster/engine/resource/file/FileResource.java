package io.muster.engine.resource.file;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.LexicalPath;
import io.muster.engine.resource.PathResource;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Reversible;
import io.muster.engine.resource.Watcher;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.TextDiff;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import io.muster.engine.util.fs.TrustedDirectories;
import io.muster.engine.util.fs.Users;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A file or directory. Content is replaced atomically (see {@link AtomicFiles}), so a reader never sees a
 * half-written file. Everything happens relative to the parent directory's descriptor, opened as
 * {@link io.muster.engine.util.fs.TrustedPath} allows (kept open for the run's next file there, see
 * {@link TrustedDirectories}), and an existing file is changed only through a
 * descriptor checked to be the file that was checked. A symbolic link at the path is not followed: it is
 * replaced like any other wrong file type.
 */
record FileResource(Path path, Ensure ensure, String content, Path source, String owner, String group,
                    DesiredMode mode, boolean force, boolean sensitive, String target, boolean recurse, boolean purge,
                    boolean create, boolean parents)
        implements PathResource, Reversible, Foreseeable {

    enum Ensure { PRESENT, ABSENT, DIRECTORY, LINK }

    private static final int DEFAULT_FILE_MODE = 0644;
    private static final int DEFAULT_DIRECTORY_MODE = 0755;

    @Override
    public void validate() throws InvalidResourceException {
        if (content != null && source != null) {
            throw new InvalidResourceException("source", "set either content or source, not both");
        }
        if (ensure == Ensure.LINK) {
            validateLink();
            return;
        }
        if (target != null) throw new InvalidResourceException("target", "target requires ensure: link");
        if (!create && ensure == Ensure.ABSENT) throw new InvalidResourceException("create", "create: false requires ensure: present or directory");
        if (parents && (ensure != Ensure.DIRECTORY || recurse)) {
            throw new InvalidResourceException("parents", "parents requires ensure: directory (and no recurse)");
        }
        if (purge && !recurse) throw new InvalidResourceException("purge", "purge requires recurse: true (and a source directory)");
        if (recurse) {
            if (source == null) throw new InvalidResourceException("recurse", "recurse requires a source directory to copy");
            if (ensure == Ensure.ABSENT) throw new InvalidResourceException("recurse", "recurse requires ensure: directory, not absent");
            if (path.startsWith(source) || source.startsWith(path)) {
                throw new InvalidResourceException("source", "the tree " + path + " and its source " + source + " may not contain each other");
            }
            return;
        }
        if (ensure != Ensure.PRESENT && (content != null || source != null)) {
            String property = content != null ? "content" : "source";
            throw new InvalidResourceException(property, property + " requires ensure: present, not "
                    + ensure.name().toLowerCase(Locale.ROOT));
        }
        if (path.getParent() == null && ensure != Ensure.DIRECTORY) {
            throw new InvalidResourceException("path", "cannot manage / as a file");
        }
    }

    private void validateLink() throws InvalidResourceException {
        if (target == null || target.isEmpty()) throw new InvalidResourceException("target", "ensure: link requires a target");
        String problem = LexicalPath.controlCharacter(target, "a link's target");
        if (problem != null) throw new InvalidResourceException("target", problem);
        Map<String, Boolean> unused = new LinkedHashMap<>();
        unused.put("content", content != null);
        unused.put("source", source != null);
        unused.put("mode", mode != null);
        unused.put("owner", owner != null);
        unused.put("group", group != null);
        unused.put("recurse", recurse);
        for (var each : unused.entrySet()) {
            if (each.getValue()) throw new InvalidResourceException(each.getKey(), each.getKey() + " does not apply to ensure: link");
        }
    }

    /** A file comes after its nearest managed ancestor directory, and after its owner and group when they are managed. */
    @Override
    public List<List<String>> wants() {
        List<List<String>> wants = new ArrayList<>(PathResource.super.wants());
        if (owner != null) wants.add(List.of("user:" + owner));
        if (group != null) wants.add(List.of("group:" + group));
        return wants;
    }

    /**
     * The path itself and, with {@code source}, the source too: an edit there is content to copy. A tree: every
     * directory in it and in its source.
     */
    @Override
    public void watch(Watcher watcher) throws Exception {
        if (tree() != null) {
            tree().watch(watcher);
            return;
        }
        watcher.hold(watcher.watchPath(path, watcher::changed));
        if (source != null) watcher.hold(watcher.watchPath(source, watcher::changed));
        watcher.ready();
    }

    @Override
    public void remember(Context context) throws IOException {
        new FileBackup(path, ownerUid(), context.stateDir()).remember();
    }

    @Override
    public Result reverse(Context context) throws IOException {
        return new FileBackup(path, ownerUid(), context.statePath()).restore();
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws IOException, InterruptedException {
        int uid = ownerUid();
        int gid = group == null ? -1 : Users.gid(group);
        TrustedDirectories kept = context.session(TrustedDirectories.class);
        try (Directory dir = ParentDirectory.open(kept, path, uid)) {
            Stat now = dir == null ? null : dir.stat(name());
            // create: false manages a file only where it exists, as mgmt's file with no state does
            if (now == null && !create) return Result.STABLE;
            if (tree() != null) return tree().converge(dir, now, uid, gid, apply);
            return switch (ensure) {
                case LINK -> new Link(path, target, force).converge(dir, now, apply);
                case ABSENT -> absent(dir, now, apply);
                case DIRECTORY -> directory(kept, dir, now, uid, gid, apply);
                case PRESENT -> {
                    byte[] desired = desiredContent();
                    Result result = present(dir, now, desired, uid, gid, context, apply);
                    // hashing reads an unmanaged file whole: only for a run where someone looks the value up
                    yield context.valuesRead() ? result.withOutputs(Map.of("sha256", sha256(dir, now, desired))) : result;
                }
            };
        }
    }

    /** The tree this resource copies from a source directory, or null when it is one file or directory. */
    private Tree tree() {
        return recurse ? new Tree(path, source, mode, owner, group, force, purge) : null;
    }

    private int ownerUid() throws IOException {
        return owner == null ? -1 : Users.uid(owner);
    }

    private String name() {
        return ParentDirectory.name(path);
    }

    /**
     * The {@code sha256} value: of the content the file has once converged (in noop: would have), so a
     * consumer sees in a plan what an apply would give it. Unmanaged content is read from the file, streamed.
     */
    private String sha256(Directory dir, Stat now, byte[] desired) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        if (desired != null) {
            digest.update(desired);
        } else if (now != null && now.regular()) {
            try (OpenFile file = dir.open(name(), now)) {
                file.digest(digest);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    @Override
    public String failureToCome(Upstream upstream) {
        return ensure == Ensure.ABSENT || !create || parents ? null : Foreseeable.missingDirectory(path, upstream);
    }

    private Result absent(Directory dir, Stat now, boolean apply) throws IOException {
        if (now == null) return Result.STABLE;
        // an empty directory goes as rmdir would take it (CCM does so); its content only with force
        boolean emptyDirectory = now.directory() && !force && isEmpty(dir, now);
        if (now.directory() && !force && !emptyDirectory) {
            throw new IOException(path + " is a directory that is not empty; set force: true to remove it with its content");
        }
        if (apply && emptyDirectory) dir.removeDirectory(name());
        else if (apply) dir.delete(name());
        return Result.changed(List.of(Change.of("ensure", now.typeName(), "absent")));
    }

    private boolean isEmpty(Directory dir, Stat now) throws IOException {
        try (Directory directory = dir.subdirectory(name(), now)) {
            return directory.list().isEmpty();
        }
    }

    private Result directory(TrustedDirectories kept, Directory dir, Stat now, int uid, int gid, boolean apply) throws IOException {
        List<Change> changes = new ArrayList<>();
        if (now != null && !now.directory()) {
            if (!force) throw new IOException(path + " exists and is not a directory; set force: true to replace it");
            if (apply) dir.unlink(name());
            now = null;
        }
        if (now == null) {
            changes.add(Change.of("ensure", "absent", "directory"));
            if (apply && dir == null && parents) makeParents(kept, uid);
            if (apply) {
                try (Directory parent = dir != null ? null : ParentDirectory.open(kept, path, uid);
                     OpenFile made = ParentDirectory.require(dir != null ? dir : parent, path).makeDirectory(name())) {
                    if (uid != -1 || gid != -1) made.chown(uid, gid);
                    made.chmod(modeFrom(DEFAULT_DIRECTORY_MODE, true));
                }
            }
            return Result.changed(changes);
        }
        dir.requireNotForeign(name(), now, uid, true);
        try (OpenFile existing = dir.open(name(), now)) {
            return Result.changed(fixAttributes(existing, now, uid, gid, apply));
        }
    }

    /** The missing directories above this one, made as {@code mkdir -p} makes them, with this directory's mode (CCM's {@code os.MkdirAll}). */
    private void makeParents(TrustedDirectories kept, int uid) throws IOException {
        ParentDirectory.makeMissing(kept, path.getParent(), uid, modeFrom(DEFAULT_DIRECTORY_MODE, true));
    }

    private Result present(Directory dir, Stat now, byte[] desired, int uid, int gid, Context context, boolean apply) throws IOException {
        List<Change> changes = new ArrayList<>();
        if (now != null && !now.regular()) {
            if (now.directory() && !force) {
                throw new IOException(path + " is a directory; set force: true to replace it with a file");
            }
            changes.add(Change.of("ensure", now.typeName(), "present"));
            if (apply) dir.delete(name());
            now = null;
        }
        if (now == null) {
            if (changes.isEmpty()) changes.add(Change.of("ensure", "absent", "present"));
            if (desired != null) changes.add(contentChange(null, desired, context));
            if (apply) {
                AtomicFiles.replace(ParentDirectory.require(dir, path), name(), desired == null ? new byte[0] : desired,
                        modeFrom(DEFAULT_FILE_MODE, false), uid, gid);
            }
            return Result.changed(changes);
        }
        dir.requireNotForeign(name(), now, uid, true);
        try (OpenFile file = dir.open(name(), now)) {
            if (desired != null) {
                byte[] current = now.size() == desired.length ? file.readAll() : null;
                if (current == null || !Arrays.equals(current, desired)) {
                    if (current == null && context.diffs() && now.size() <= OpenFile.MAX_READ) current = file.readAll();
                    changes.add(current == null && context.diffs()
                            ? Change.withDiff("content", "content differs (" + now.size() + " bytes now: too large to diff)\n")
                            : contentChange(current, desired, context));
                    changes.addAll(fixAttributes(file, now, uid, gid, false));
                    // those the manifest does not set stay as they were, as an edit in place would keep them
                    if (apply) {
                        AtomicFiles.replace(dir, name(), desired, modeFrom(now.mode(), false),
                                uid != -1 ? uid : now.uid(), gid != -1 ? gid : now.gid());
                    }
                    return Result.changed(changes);
                }
            }
            if (apply && uid != -1 && now.uid() != uid && !Users.privileged(now.uid())) {
                // its owner until now may hold it open for writing: the new owner gets a new file no such descriptor reaches
                changes.addAll(fixAttributes(file, now, uid, gid, false));
                byte[] same = desired != null ? desired : file.readAll(); // desired: it was read and equals it
                AtomicFiles.replace(dir, name(), same, modeFrom(now.mode(), false), uid, gid != -1 ? gid : now.gid());
                return Result.changed(changes);
            }
            changes.addAll(fixAttributes(file, now, uid, gid, apply));
            return Result.changed(changes);
        }
    }

    private Change contentChange(byte[] current, byte[] desired, Context context) {
        if (!context.diffs()) return Change.withDiff("content", null);
        if (sensitive) return Change.withDiff("content", "content differs (sensitive: diff redacted)\n");
        return Change.withDiff("content", TextDiff.unified(path.toString(), current, desired));
    }

    private byte[] desiredContent() throws IOException {
        if (content != null) {
            byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
            if (bytes.length > OpenFile.MAX_READ) {
                throw new IOException("content is " + bytes.length + " bytes; a file's content may have up to " + (OpenFile.MAX_READ >> 20) + " MiB");
            }
            return bytes;
        }
        if (source == null) return null;
        try (OpenFile file = OpenFile.regular(source)) {
            return file.readAll();
        } catch (IOException e) {
            throw new IOException("source " + e.getMessage(), e);
        }
    }

    /** Owner, group and mode of an existing file: what differs, fixed through its descriptor when {@code apply}. */
    private List<Change> fixAttributes(OpenFile file, Stat now, int uid, int gid, boolean apply) throws IOException {
        List<Change> changes = new ArrayList<>(0);
        boolean chown = false;
        if (uid != -1 && now.uid() != uid) {
            changes.add(Change.of("owner", Users.userName(now.uid()), owner));
            chown = true;
        }
        if (gid != -1 && now.gid() != gid) {
            changes.add(Change.of("group", Users.groupName(now.gid()), group));
            chown = true;
        }
        int wanted = modeFrom(now.mode(), now.directory());
        boolean chmod = now.mode() != wanted;
        if (chmod) changes.add(Change.of("mode", FileMode.format(now.mode()), FileMode.format(wanted)));
        if (apply && (chown || chmod) && now.regular() && now.links() > 1) {
            // a hard link may be another file (where links are not protected, a user can link root's files)
            throw new IOException(path + " has " + now.links() + " hard links; muster changes the owner and mode only of a file with one");
        }
        if (apply && chown) file.chown(uid, gid);
        // chown clears the set-id bits: the mode is set again after it
        if (apply && (chmod || chown)) file.chmod(wanted);
        return changes;
    }

    /** The mode this resource wants for a file (or directory) whose mode is {@code current}: its own, or {@code current} when it sets none. */
    private int modeFrom(int current, boolean directory) {
        return mode != null ? mode.from(current, directory) : current;
    }
}
