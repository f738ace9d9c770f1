package io.muster.engine.resource.archive;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Enumeration;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * Reads the entries of an archive file, whose format its first bytes tell (so a name without the usual
 * extension is read too): zip, gzip- or xz-compressed tar, or plain tar.
 */
final class ArchiveReader {
    private ArchiveReader() {}

    /** What is done with each entry, in the archive's order. */
    interface Entries {
        void directory(String name, int mode) throws IOException;

        void file(String name, int mode, InputStream content) throws IOException;

        void link(String name, String target) throws IOException;

        /** An entry of another type (a hard link, a device, a FIFO): {@code what} names it. */
        void other(String name, String what) throws IOException;
    }

    private static final byte[] ZIP = {'P', 'K', 3, 4};
    private static final byte[] EMPTY_ZIP = {'P', 'K', 5, 6};
    private static final byte[] GZIP = {(byte) 0x1f, (byte) 0x8b};
    private static final byte[] XZ = {(byte) 0xfd, '7', 'z', 'X', 'Z', 0};
    private static final int S_IFMT = 0170000;

    static void read(Path archive, String source, Entries entries) throws IOException {
        byte[] head = new byte[512];
        int n;
        try (InputStream in = Files.newInputStream(archive)) {
            n = in.readNBytes(head, 0, head.length);
        }
        if (starts(head, n, ZIP) || starts(head, n, EMPTY_ZIP)) {
            readZip(archive, entries);
        } else if (starts(head, n, GZIP)) {
            try (InputStream in = new GzipCompressorInputStream(new BufferedInputStream(Files.newInputStream(archive)), true)) {
                readTar(in, entries);
            }
        } else if (starts(head, n, XZ)) {
            try (InputStream in = new XZCompressorInputStream(new BufferedInputStream(Files.newInputStream(archive)), true)) {
                readTar(in, entries);
            }
        } else if (n == 512 && new String(head, 257, 5, java.nio.charset.StandardCharsets.US_ASCII).equals("ustar")) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(archive))) {
                readTar(in, entries);
            }
        } else {
            throw new IOException(source + " is not a .tar, .tar.gz, .tar.xz or .zip archive");
        }
    }

    private static boolean starts(byte[] head, int length, byte[] magic) {
        return length >= magic.length && Arrays.equals(head, 0, magic.length, magic, 0, magic.length);
    }

    private static void readTar(InputStream in, Entries entries) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            for (TarArchiveEntry e; (e = tar.getNextEntry()) != null; ) {
                if (e.isSymbolicLink()) entries.link(e.getName(), e.getLinkName());
                else if (e.isLink()) entries.other(e.getName(), "a hard link to " + e.getLinkName());
                else if (e.isDirectory()) entries.directory(e.getName(), e.getMode());
                else if (e.isFile()) entries.file(e.getName(), e.getMode(), tar);
                else entries.other(e.getName(), e.isCharacterDevice() || e.isBlockDevice() ? "a device" : e.isFIFO() ? "a FIFO" : "of an unknown type");
            }
        }
    }

    private static void readZip(Path archive, Entries entries) throws IOException {
        try (ZipFile zip = ZipFile.builder().setPath(archive).get()) {
            for (Enumeration<ZipArchiveEntry> all = zip.getEntriesInPhysicalOrder(); all.hasMoreElements(); ) {
                ZipArchiveEntry e = all.nextElement();
                int type = e.getUnixMode() & S_IFMT;
                if (e.isUnixSymlink()) entries.link(e.getName(), zip.getUnixSymlink(e));
                else if (e.isDirectory()) entries.directory(e.getName(), e.getUnixMode());
                else if (type != 0 && type != 0100000) entries.other(e.getName(), "not a file, directory or link");
                else {
                    try (InputStream content = zip.getInputStream(e)) {
                        entries.file(e.getName(), e.getUnixMode(), content);
                    }
                }
            }
        }
    }
}
