package io.muster.engine.resource.file;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Result;
import io.muster.engine.util.AtomicFiles;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
        Map<String, Object> a;
        try {
            a = Files.readAttributes(path, "unix:mode,uid,gid,isDirectory,isRegularFile", LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            write("type=absent\n");
            return;
        }
        String type = (boolean) a.get("isDirectory") ? "directory" : (boolean) a.get("isRegularFile") ? "file" : "other";
        if (type.equals("file")) AtomicFiles.write(content, Files.readAllBytes(path));
        write("type=" + type + "\nmode=" + FileMode.format((int) a.get("mode") & 07777) + "\nuid=" + a.get("uid")
                + "\ngid=" + a.get("gid") + "\n");
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
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) return Result.STABLE;
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            try (var entries = Files.list(path)) {
                if (entries.findAny().isPresent()) throw new IOException("not removing " + path + ": muster created it, but it is not empty now");
            }
        }
        Files.delete(path);
        return Result.changed(List.of(Change.of("ensure", "present", "absent")));
    }

    private Result restoreFile(Properties original) throws IOException {
        int mode = FileMode.parse(original.getProperty("mode"));
        int uid = Integer.parseInt(original.getProperty("uid"));
        int gid = Integer.parseInt(original.getProperty("gid"));
        byte[] bytes = Files.readAllBytes(content);
        if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) && Arrays.equals(bytes, Files.readAllBytes(path))
                && ((int) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777) == mode) {
            return Result.STABLE;
        }
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) throw new IOException("not restoring " + path + ": a directory is there now");
        AtomicFiles.write(path, bytes, temp -> {
            Files.setAttribute(temp, "unix:mode", mode);
            if (uid != (int) Files.getAttribute(temp, "unix:uid")) Files.setAttribute(temp, "unix:uid", uid);
            if (gid != (int) Files.getAttribute(temp, "unix:gid")) Files.setAttribute(temp, "unix:gid", gid);
        });
        return Result.changed(List.of(Change.of("content", null, "restored")));
    }

    private Result restoreMode(Properties original) throws IOException {
        int mode = FileMode.parse(original.getProperty("mode"));
        if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) return Result.STABLE;
        int now = (int) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
        if (now == mode) return Result.STABLE;
        Files.setAttribute(path, "unix:mode", mode);
        return Result.changed(List.of(Change.of("mode", FileMode.format(now), FileMode.format(mode))));
    }

    private void write(String text) throws IOException {
        AtomicFiles.write(record, text.getBytes(StandardCharsets.UTF_8));
    }
}
