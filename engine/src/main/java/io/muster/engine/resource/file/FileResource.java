package io.muster.engine.resource.file;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.PathResource;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Reversible;
import io.muster.engine.resource.Watcher;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.TextDiff;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A file or directory. Content is replaced atomically (temp file with the final mode and owner, fsync,
 * rename), so a reader never sees a half-written file. A symbolic link at the path is not followed: it is
 * replaced like any other wrong file type.
 */
record FileResource(Path path, Ensure ensure, String content, Path source, String owner, String group,
                    Integer mode, boolean force, boolean sensitive) implements PathResource, Reversible {

    enum Ensure { PRESENT, ABSENT, DIRECTORY }

    private static final int DEFAULT_FILE_MODE = 0644;
    private static final int DEFAULT_DIRECTORY_MODE = 0755;

    @Override
    public void validate() throws InvalidResourceException {
        if (content != null && source != null) {
            throw new InvalidResourceException("source", "set either content or source, not both");
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

    /** The path itself and, with {@code source}, the source too: an edit there is content to copy. */
    @Override
    public void watch(Watcher watcher) throws Exception {
        try (AutoCloseable target = watcher.watchPath(path, watcher::changed);
             AutoCloseable origin = source == null ? null : watcher.watchPath(source, watcher::changed)) {
            watcher.ready();
            Watcher.awaitCancel();
        }
    }

    @Override
    public void remember(Context context) throws IOException {
        new FileBackup(path, context.stateDir()).remember();
    }

    @Override
    public Result reverse(Context context) throws IOException {
        return new FileBackup(path, context.statePath()).restore();
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws IOException {
        FileStat now = FileStat.of(path);
        return switch (ensure) {
            case ABSENT -> absent(now, apply);
            case DIRECTORY -> directory(now, apply);
            case PRESENT -> {
                byte[] desired = desiredContent();
                Result result = present(now, desired, context, apply);
                // hashing reads an unmanaged file whole: only for a run where someone looks the value up
                yield context.valuesRead() ? result.withOutputs(Map.of("sha256", sha256(now, desired))) : result;
            }
        };
    }

    /**
     * The {@code sha256} value: of the content the file has once converged (in noop: would have), so a
     * consumer sees in a plan what an apply would give it. Unmanaged content is read from the file.
     */
    private String sha256(FileStat now, byte[] desired) throws IOException {
        byte[] content = desired != null ? desired : now != null && now.regular() ? Files.readAllBytes(path) : new byte[0];
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private Result absent(FileStat now, boolean apply) throws IOException {
        if (now == null) return Result.STABLE;
        if (now.directory() && !force) {
            throw new IOException(path + " is a directory; set force: true to remove it");
        }
        if (apply) AtomicFiles.deleteRecursively(path);
        return Result.changed(List.of(Change.of("ensure", now.type(), "absent")));
    }

    private Result directory(FileStat now, boolean apply) throws IOException {
        List<Change> changes = new ArrayList<>();
        if (now != null && !now.directory()) {
            if (!force) throw new IOException(path + " exists and is not a directory; set force: true to replace it");
            if (apply) Files.delete(path);
            now = null;
        }
        if (now == null) {
            changes.add(Change.of("ensure", "absent", "directory"));
            if (apply) {
                requireParent();
                Files.createDirectory(path);
                setAttributes(path, DEFAULT_DIRECTORY_MODE);
            }
            return Result.changed(changes);
        }
        return Result.changed(fixAttributes(now, apply));
    }

    private Result present(FileStat now, byte[] desired, Context context, boolean apply) throws IOException {
        List<Change> changes = new ArrayList<>();
        if (now != null && !now.regular()) {
            if (now.directory() && !force) {
                throw new IOException(path + " is a directory; set force: true to replace it with a file");
            }
            changes.add(Change.of("ensure", now.type(), "present"));
            if (apply) AtomicFiles.deleteRecursively(path);
            now = null;
        }
        if (now == null) {
            if (changes.isEmpty()) changes.add(Change.of("ensure", "absent", "present"));
            if (desired != null) changes.add(contentChange(null, desired, context));
            if (apply) {
                requireParent();
                AtomicFiles.write(path, desired == null ? new byte[0] : desired, temp -> setAttributes(temp, DEFAULT_FILE_MODE));
            }
            return Result.changed(changes);
        }
        if (desired != null) {
            byte[] current = now.size() == desired.length ? Files.readAllBytes(path) : null;
            if (current == null || !Arrays.equals(current, desired)) {
                if (current == null && context.diffs()) current = Files.readAllBytes(path);
                changes.add(contentChange(current, desired, context));
                List<Change> attributes = fixAttributes(now, false);
                changes.addAll(attributes);
                if (apply) {
                    FileStat before = now;
                    AtomicFiles.write(path, desired, temp -> {
                        setAttributes(temp, before.mode());
                        before.keepOwnership(temp, owner == null, group == null); // those the manifest does not set
                    });
                }
                return Result.changed(changes);
            }
        }
        changes.addAll(fixAttributes(now, apply));
        return Result.changed(changes);
    }

    private Change contentChange(byte[] current, byte[] desired, Context context) {
        if (!context.diffs()) return Change.withDiff("content", null);
        if (sensitive) return Change.withDiff("content", "content differs (sensitive: diff redacted)\n");
        return Change.withDiff("content", TextDiff.unified(path.toString(), current, desired));
    }

    private byte[] desiredContent() throws IOException {
        if (content != null) return content.getBytes(StandardCharsets.UTF_8);
        if (source == null) return null;
        try {
            return Files.readAllBytes(source);
        } catch (NoSuchFileException e) {
            throw new IOException("source " + source + " does not exist");
        }
    }

    private void requireParent() throws IOException {
        Path parent = path.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new IOException("parent directory " + parent + " does not exist (manage it with a file resource, ensure: directory)");
        }
    }

    /** Owner, group and mode of an existing file: what differs, fixed when {@code apply}. */
    private List<Change> fixAttributes(FileStat now, boolean apply) throws IOException {
        List<Change> changes = new ArrayList<>(0);
        if (owner != null) {
            UserPrincipal want = user(owner);
            UserPrincipal have = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS);
            if (!want.equals(have)) {
                changes.add(Change.of("owner", have.getName(), owner));
                if (apply) Files.setOwner(path, want);
            }
        }
        if (group != null) {
            GroupPrincipal want = group(group);
            PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
            GroupPrincipal have = view.readAttributes().group();
            if (!want.equals(have)) {
                changes.add(Change.of("group", have.getName(), group));
                if (apply) view.setGroup(want);
            }
        }
        if (mode != null && now.mode() != mode) {
            changes.add(Change.of("mode", FileMode.format(now.mode()), FileMode.format(mode)));
            if (apply) Files.setAttribute(path, "unix:mode", mode);
        }
        return changes;
    }

    /** Desired mode (or {@code fallback}), owner and group on a path that is not yet in place. */
    private void setAttributes(Path target, int fallbackMode) throws IOException {
        Files.setAttribute(target, "unix:mode", mode != null ? mode : fallbackMode);
        if (owner != null) Files.setOwner(target, user(owner));
        if (group != null) {
            Files.getFileAttributeView(target, PosixFileAttributeView.class).setGroup(group(group));
        }
    }

    private UserPrincipal user(String name) throws IOException {
        try {
            return lookup().lookupPrincipalByName(name);
        } catch (UserPrincipalNotFoundException e) {
            throw new IOException("owner: no such user '" + name + "'");
        }
    }

    private GroupPrincipal group(String name) throws IOException {
        try {
            return lookup().lookupPrincipalByGroupName(name);
        } catch (UserPrincipalNotFoundException e) {
            throw new IOException("group: no such group '" + name + "'");
        }
    }

    private UserPrincipalLookupService lookup() {
        return path.getFileSystem().getUserPrincipalLookupService();
    }
}
