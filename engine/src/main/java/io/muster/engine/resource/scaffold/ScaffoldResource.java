package io.muster.engine.resource.scaffold;

import io.muster.engine.process.ProcessRunner;
import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A directory of rendered files. Present: each file whose content differs is written (a temp file renamed over
 * it, a new one 0644, its directories made) and its matching {@code post} commands run; with {@code purge}, any
 * other file in the directory is removed. Absent: the scaffold's own files are removed, then the directories left
 * empty, the directory itself last, only when empty (what else it holds stays).
 */
record ScaffoldResource(Path path, boolean present, Map<String, String> files, boolean purge, List<PostCommand> post, Path directory)
        implements Resource {
    private static final Duration POST_TIMEOUT = Duration.ofMinutes(5);

    @Override
    public Result checkApply(Context context, boolean apply) throws IOException, InterruptedException {
        List<Change> changes = present ? render(context, apply) : remove(apply);
        return changes.isEmpty() ? Result.STABLE : Result.changed(changes);
    }

    private List<Change> render(Context context, boolean apply) throws IOException, InterruptedException {
        List<Change> changes = new ArrayList<>();
        if (!Files.isDirectory(path)) {
            changes.add(Change.of("ensure", "absent", "directory"));
            if (apply) Files.createDirectories(path);
        }
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path target = path.resolve(file.getKey());
            byte[] wanted = file.getValue().getBytes(StandardCharsets.UTF_8);
            boolean exists = Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS);
            if (exists && Arrays.equals(Files.readAllBytes(target), wanted)) continue;
            changes.add(Change.of(file.getKey(), exists ? "changed" : "absent", "rendered"));
            if (!apply) continue;
            write(target, wanted);
            runPost(context, target);
        }
        if (purge) {
            for (Path stray : strays()) {
                changes.add(Change.of(path.relativize(stray).toString(), "present", "purged"));
                if (apply) Files.delete(stray);
            }
        }
        return changes;
    }

    private static void write(Path target, byte[] content) throws IOException {
        Files.createDirectories(target.getParent());
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".muster");
        try {
            Files.write(temp, content);
            if (Files.exists(target)) Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(target));
            else Files.setPosixFilePermissions(temp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private void runPost(Context context, Path target) throws IOException, InterruptedException {
        for (PostCommand command : post) {
            if (!command.matches(target)) continue;
            ProcessRunner.Outcome outcome = ProcessRunner.in(directory, POST_TIMEOUT).run(command.argv(target), command.command());
            if (outcome.exitCode() != 0) {
                throw new IOException("post command '" + command.command() + "' on " + target + " exited with " + outcome.exitCode()
                        + ": " + outcome.stderr().text());
            }
            context.log().info("post: {} on {}", command.command(), target);
        }
    }

    /** The regular files and links in the directory that the scaffold does not render. */
    private List<Path> strays() throws IOException {
        if (!Files.isDirectory(path)) return List.of();
        Set<Path> own = files.keySet().stream().map(path::resolve).collect(Collectors.toSet());
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && !own.contains(p)).sorted().toList();
        }
    }

    private List<Change> remove(boolean apply) throws IOException {
        List<Change> changes = new ArrayList<>();
        for (String file : files.keySet()) {
            Path target = path.resolve(file);
            if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) continue;
            changes.add(Change.of(file, "present", "absent"));
            if (apply) Files.delete(target);
        }
        if (apply && !changes.isEmpty()) removeEmptyDirectories();
        return changes;
    }

    /** The directories the scaffold's files were in, deepest first, and the directory itself, each only when empty. */
    private void removeEmptyDirectories() throws IOException {
        List<Path> directories = files.keySet().stream().map(f -> path.resolve(f).getParent())
                .flatMap(d -> Stream.iterate(d, p -> p != null && p.startsWith(path), Path::getParent))
                .distinct().sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList();
        for (Path dir : directories) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isEmpty()) Files.delete(dir);
            } catch (java.nio.file.NoSuchFileException e) {
                // already gone
            }
        }
    }
}
