package io.muster.engine.util;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ThreadLocalRandom;

/** File writes that never leave a half-written file: temp file in the same directory, fsync, rename. */
public final class AtomicFiles {
    private AtomicFiles() {}

    /** Something to do to the temp file before it takes the target's place (mode, owner). */
    @FunctionalInterface
    public interface Prepare {
        void accept(Path temp) throws IOException;
    }

    public static void write(Path target, byte[] content, Prepare prepare) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(String.valueOf(dir), null, "parent directory does not exist");
        }
        Path temp = dir.resolve("." + target.getFileName() + ".muster-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) out.write(buffer);
                out.force(true);
            }
            prepare.accept(temp);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    public static void write(Path target, byte[] content) throws IOException {
        write(target, content, temp -> {});
    }

    /** Deletes a file, a link, or a directory tree (without following links out of it). */
    public static void deleteRecursively(Path path) throws IOException {
        if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            Files.deleteIfExists(path);
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) throw e;
                try {
                    Files.delete(dir);
                } catch (DirectoryNotEmptyException race) {
                    deleteRecursively(dir);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
