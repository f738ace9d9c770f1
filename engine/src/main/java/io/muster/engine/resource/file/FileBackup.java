package io.muster.engine.resource.file;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Result;
import io.muster.engine.util.AtomicFiles;
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
 * for a regular file, {@code original.content}. Never in the managed file's directory.
 */
final class FileBackup {
    private final Path path;
    private final Path record;
    private final Path content;

    FileBackup(Path path, Path stateDir) {
        this.path = path;
        this.record = stateDir.resolve("original.properties");
        this.content = stateDir.resolve("original.content");
    }

    /** Records the path as it is now, unless a record exists (the first one is the original). */
    void remember() throws IOException {
        if (Files.exists(record)) return;
        FileStat now = FileStat.of(path);
        if (now == null) {
            write("type=absent\n");
            return;
        }
        String type = now.directory() ? "directory" : now.regular() ? "file" : "other";
        if (now.regular()) AtomicFiles.write(content, Files.readAllBytes(path));
        write("type=" + type + "\nmode=" + FileMode.format(now.mode()) + "\nuid=" + now.uid() + "\ngid=" + now.gid() + "\n");
    }

    /** Puts back what {@link #remember} recorded, then forgets it. */
    Result restore() throws IOException {
        if (!Files.exists(record)) return Result.STABLE;
        Properties original = new Properties();
        original.load(new StringReader(Files.readString(record)));
        Result result = switch (original.getProperty("type")) {
            case "absent" -> remove();
            case "file" -> restoreFile(original);
            case "directory" -> restoreMode(original);
            default -> Result.STABLE; // a device or socket was there: muster would not have made one
        };
        Files.deleteIfExists(content);
        Files.delete(record);
        return result;
    }

    private Result remove() throws IOException {
        FileStat now = FileStat.of(path);
        if (now == null) return Result.STABLE;
        if (now.directory()) {
            try (var entries = Files.list(path)) {
                if (entries.findAny().isPresent()) throw new IOException("not removing " + path + ": muster created it, but it is not empty now");
            }
        }
        Files.delete(path);
        return Result.changed(List.of(Change.of("ensure", "present", "absent")));
    }

    private Result restoreFile(Properties original) throws IOException {
        int mode = FileMode.parse(original.getProperty("mode"));
        FileStat was = new FileStat(mode, Integer.parseInt(original.getProperty("uid")), Integer.parseInt(original.getProperty("gid")),
                0, false, true, false);
        byte[] bytes = Files.readAllBytes(content);
        FileStat now = FileStat.of(path);
        if (now != null && now.regular() && now.mode() == mode && Arrays.equals(bytes, Files.readAllBytes(path))) return Result.STABLE;
        if (now != null && now.directory()) throw new IOException("not restoring " + path + ": a directory is there now");
        AtomicFiles.write(path, bytes, temp -> {
            Files.setAttribute(temp, "unix:mode", mode);
            was.keepOwnership(temp, true, true);
        });
        return Result.changed(List.of(Change.of("content", null, "restored")));
    }

    private Result restoreMode(Properties original) throws IOException {
        int mode = FileMode.parse(original.getProperty("mode"));
        FileStat now = FileStat.of(path);
        if (now == null || !now.directory() || now.mode() == mode) return Result.STABLE;
        Files.setAttribute(path, "unix:mode", mode);
        return Result.changed(List.of(Change.of("mode", FileMode.format(now.mode()), FileMode.format(mode))));
    }

    private void write(String text) throws IOException {
        AtomicFiles.write(record, text.getBytes(StandardCharsets.UTF_8));
    }
}
