package io.muster.engine.resource.file;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Result;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * What was at a path before muster first changed it, kept in the resource's state dir for
 * {@code meta.reverse}: {@code original.properties} (whether it existed, its type, mode, uid and gid) and,
 * for a regular file, {@code original.content} (0600, like every state file). Never in the managed
 * file's directory. {@code owner} is the uid the resource gives the file (-1: none), trusted as the owner
 * of the directories above it.
 */
final class FileBackup {
    private final Path path;
    private final int owner;
    private final Path record;
    private final Path content;

    FileBackup(Path path, int owner, Path stateDir) {
        this.path = path;
        this.owner = owner;
        this.record = stateDir.resolve("original.properties");
        this.content = stateDir.resolve("original.content");
    }

    private String name() {
        return ParentDirectory.name(path);
    }

    /** Records the path as it is now, unless a record exists (the first one is the original). */
    void remember() throws IOException {
        if (Files.exists(record)) return;
        try (Directory dir = ParentDirectory.open(path, owner)) {
            Stat now = dir == null ? null : dir.stat(name());
            if (now == null) {
                write("type=absent\n");
                return;
            }
            String type = now.directory() ? "directory" : now.regular() ? "file" : "other";
            if (now.regular()) {
                try (OpenFile file = dir.open(name(), now)) {
                    AtomicFiles.writePrivate(content, file.readAll());
                }
            }
            write("type=" + type + "\nmode=" + FileMode.format(now.mode()) + "\nuid=" + now.uid() + "\ngid=" + now.gid() + "\n");
        }
    }

    /** Puts back what {@link #remember} recorded, then forgets it. */
    Result restore() throws IOException {
        if (!Files.exists(record)) return Result.STABLE;
        Properties original = new Properties();
        original.load(new StringReader(Files.readString(record)));
        Result result;
        try (Directory dir = ParentDirectory.open(path, owner)) {
            Stat now = dir == null ? null : dir.stat(name());
            result = switch (original.getProperty("type")) {
                case "absent" -> remove(dir, now);
                case "file" -> restoreFile(ParentDirectory.require(dir, path), now, original);
                case "directory" -> restoreMode(dir, now, original);
                default -> Result.STABLE; // a device or socket was there: muster would not have made one
            };
        }
        Files.deleteIfExists(content);
        Files.delete(record);
        return result;
    }

    private Result remove(Directory dir, Stat now) throws IOException {
        if (now == null) return Result.STABLE;
        if (now.directory()) {
            try {
                dir.removeDirectory(name());
            } catch (IOException e) {
                throw new IOException("not removing " + path + ": muster created it, but it is not empty now", e);
            }
        } else {
            dir.unlink(name());
        }
        return Result.changed(List.of(Change.of("ensure", "present", "absent")));
    }

    private Result restoreFile(Directory dir, Stat now, Properties original) throws IOException {
        int mode = FileMode.parse(original.getProperty("mode"));
        byte[] bytes = Files.readAllBytes(content);
        if (now != null && now.directory()) throw new IOException("not restoring " + path + ": a directory is there now");
        if (now != null && now.regular() && now.mode() == mode) {
            try (OpenFile file = dir.open(name(), now)) {
                if (now.size() == bytes.length && Arrays.equals(bytes, file.readAll())) return Result.STABLE;
            }
        }
        AtomicFiles.replace(dir, name(), bytes, mode, Integer.parseInt(original.getProperty("uid")),
                Integer.parseInt(original.getProperty("gid")));
        return Result.changed(List.of(Change.of("content", null, "restored")));
    }

    private Result restoreMode(Directory dir, Stat now, Properties original) throws IOException {
        int mode = FileMode.parse(original.getProperty("mode"));
        if (now == null || !now.directory() || now.mode() == mode) return Result.STABLE;
        try (OpenFile existing = dir.open(name(), now)) {
            existing.chmod(mode);
        }
        return Result.changed(List.of(Change.of("mode", FileMode.format(now.mode()), FileMode.format(mode))));
    }

    private void write(String text) throws IOException {
        AtomicFiles.writePrivate(record, text.getBytes(StandardCharsets.UTF_8));
    }
}
