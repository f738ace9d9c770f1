package io.muster.engine.resource.document;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.PathResource;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.file.FileMode;
import io.muster.engine.resource.file.ParentDirectory;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.Json;
import io.muster.engine.util.TextDiff;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A JSON or YAML file of which muster manages only the fields the manifest sets. What the manifest set
 * last time (last-applied) is kept in the resource's state directory, never in the file, so that a field
 * dropped from the manifest is removed while fields other tools wrote stay. The file is rewritten
 * (atomically, keeping its mode and owner) only when the merge changes its content; last-applied (0600,
 * like every state file: it repeats the manifest's values, secrets included) is written after the file, so
 * a failed write leaves the old record, and a failed record is an error that says the file was written.
 */
record DocumentResource(Path path, DocumentFormat format, Ensure ensure, Map<String, Object> content,
                        Integer mode, boolean sensitive) implements PathResource, Foreseeable {

    enum Ensure { PRESENT, ABSENT }

    static final String LAST_APPLIED = "last-applied.json";
    private static final int DEFAULT_MODE = 0644;

    @Override
    public void validate() throws InvalidResourceException {
        if (ensure == Ensure.PRESENT && content == null) {
            throw new InvalidResourceException("content", "missing required property 'content' (a map of the fields to manage)");
        }
        if (ensure == Ensure.ABSENT && (content != null || mode != null)) {
            String property = content != null ? "content" : "mode";
            throw new InvalidResourceException(property, property + " requires ensure: present, not absent");
        }
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws IOException {
        try (Directory dir = ParentDirectory.open(path, -1)) {
            Stat now = dir == null ? null : dir.stat(name());
            if (now != null && !now.regular()) {
                throw new IOException(path + " is a " + now.typeName() + "; a document resource manages a regular file");
            }
            Path lastAppliedFile = context.statePath().resolve(LAST_APPLIED);
            if (ensure == Ensure.ABSENT) return absent(dir, now, lastAppliedFile, apply);
            if (now != null) dir.requireNotForeign(name(), now, -1, false);

            byte[] current = null;
            if (now != null) {
                try (OpenFile file = dir.open(name(), now)) {
                    current = file.readAll();
                }
            }
            Map<String, Object> observed = current == null ? null : observed(current);
            byte[] lastAppliedBytes = AtomicFiles.readPrivate(lastAppliedFile);
            Map<String, Object> lastApplied = lastAppliedBytes == null ? null : lastApplied(lastAppliedFile, lastAppliedBytes);
            Map<String, Object> merged = ThreeWayMerge.merge(observed, lastApplied, content);

            List<Change> changes = new ArrayList<>();
            boolean rewrite = observed == null || !Values.same(merged, observed);
            byte[] next = rewrite ? format.render(merged).getBytes(StandardCharsets.UTF_8) : current;
            if (now == null) changes.add(Change.of("ensure", "absent", "present"));
            if (rewrite) changes.add(contentChange(current, next, context));
            boolean chmod = now != null && mode != null && now.mode() != mode;
            if (chmod) changes.add(Change.of("mode", FileMode.format(now.mode()), FileMode.format(mode)));
            if (!apply) return Result.changed(changes);

            // made before the file is written: a state directory that cannot be made fails the resource first
            Path state = context.stateDir().resolve(LAST_APPLIED);
            if (rewrite) write(dir, next, now);
            else if (chmod) {
                try (OpenFile file = dir.open(name(), now)) {
                    file.chmod(mode);
                }
            }
            byte[] remember = (Json.pretty(content) + "\n").getBytes(StandardCharsets.UTF_8);
            if (!Arrays.equals(remember, lastAppliedBytes)) {
                try {
                    AtomicFiles.writePrivate(state, remember);
                } catch (IOException e) {
                    throw new IOException(path + " was written, but recording what muster set in it failed (" + e.getMessage()
                            + "); until it is recorded, fields dropped from the manifest are not removed", e);
                }
            }
            return Result.changed(changes);
        }
    }

    private String name() {
        return ParentDirectory.name(path);
    }

    /** The file goes, and with it the record of what muster set in it. */
    @Override
    public String failureToCome(Upstream upstream) {
        return ensure == Ensure.ABSENT ? null : Foreseeable.missingDirectory(path, upstream);
    }

    private Result absent(Directory dir, Stat now, Path lastAppliedFile, boolean apply) throws IOException {
        if (apply) Files.deleteIfExists(lastAppliedFile);
        if (now == null) return Result.STABLE;
        if (apply) dir.unlink(name());
        return Result.changed(List.of(Change.of("ensure", "present", "absent")));
    }

    /** Replaces the file, or creates it; a replaced file keeps the mode and owner it had unless the manifest sets a mode. */
    private void write(Directory dir, byte[] bytes, Stat before) throws IOException {
        int fileMode = mode != null ? mode : before != null ? before.mode() : DEFAULT_MODE;
        AtomicFiles.replace(ParentDirectory.require(dir, path), name(), bytes, fileMode,
                before != null ? before.uid() : -1, before != null ? before.gid() : -1);
    }

    private Change contentChange(byte[] current, byte[] next, Context context) {
        if (!context.diffs()) return Change.withDiff("content", null);
        if (sensitive) return Change.withDiff("content", "content differs (sensitive: diff redacted)\n");
        return Change.withDiff("content", TextDiff.unified(path.toString(), current, next));
    }

    private Map<String, Object> observed(byte[] bytes) throws IOException {
        try {
            return format.read(bytes);
        } catch (IllegalArgumentException e) {
            throw new IOException(path + ": " + e.getMessage() + " (left as it is)");
        }
    }

    private static Map<String, Object> lastApplied(Path file, byte[] bytes) throws IOException {
        try {
            return DocumentFormat.JSON.read(bytes);
        } catch (IllegalArgumentException e) {
            throw new IOException("state file " + file + ": " + e.getMessage()
                    + "; remove it to start afresh (what muster set before is then kept like others' fields)");
        }
    }
}
