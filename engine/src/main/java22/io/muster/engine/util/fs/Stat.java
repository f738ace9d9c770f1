package io.muster.engine.util.fs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemorySegment;

/**
 * What is at a name, read with statx (its struct has one layout on every architecture): which file it is
 * (device and inode), its type and permission bits, owner, group, size and number of hard links.
 */
public record Stat(long device, long inode, int type, int mode, int uid, int gid, long size, int links) {
    static final int STATX_SIZE = 256;
    static final int STATX_BASIC_STATS = 0x7ff;
    private static final int S_IFMT = 0170000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFLNK = 0120000;

    static Stat of(MemorySegment statx) {
        int mode = Short.toUnsignedInt(statx.get(JAVA_SHORT, 28));
        long device = ((long) statx.get(JAVA_INT, 136) << 32) | Integer.toUnsignedLong(statx.get(JAVA_INT, 140));
        return new Stat(device, statx.get(JAVA_LONG, 32), mode & S_IFMT, mode & 07777,
                statx.get(JAVA_INT, 20), statx.get(JAVA_INT, 24), statx.get(JAVA_LONG, 40), statx.get(JAVA_INT, 16));
    }

    public boolean directory() {
        return type == S_IFDIR;
    }

    public boolean regular() {
        return type == S_IFREG;
    }

    public boolean link() {
        return type == S_IFLNK;
    }

    /** The word a report uses for what is there. */
    public String typeName() {
        return directory() ? "directory" : regular() ? "present" : link() ? "link" : "special file";
    }

    /** Whether {@code other} is this very file (not another one put at the same name since). */
    public boolean sameFile(Stat other) {
        return device == other.device && inode == other.inode;
    }
}
