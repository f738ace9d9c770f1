package io.muster.engine.resource.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/** What is at a path, read with one stat call that does not follow links; shared by the kinds that write files. */
public record FileStat(int mode, int uid, int gid, long size, boolean directory, boolean regular, boolean link) {

    /** The path's stat, or null when nothing is there. */
    public static FileStat of(Path path) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(path, "unix:mode,uid,gid,size,isDirectory,isRegularFile,isSymbolicLink", LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        return new FileStat((int) a.get("mode") & 07777, (int) a.get("uid"), (int) a.get("gid"), (long) a.get("size"),
                (boolean) a.get("isDirectory"), (boolean) a.get("isRegularFile"), (boolean) a.get("isSymbolicLink"));
    }

    public String type() {
        return directory ? "directory" : regular ? "present" : link ? "link" : "special file";
    }

    /**
     * Gives {@code replacement} (a temp file about to be renamed over this one) this file's owner and/or
     * group, as an edit in place would have kept them.
     */
    public void keepOwnership(Path replacement, boolean owner, boolean group) throws IOException {
        if (owner && uid != (int) Files.getAttribute(replacement, "unix:uid")) Files.setAttribute(replacement, "unix:uid", uid);
        if (group && gid != (int) Files.getAttribute(replacement, "unix:gid")) Files.setAttribute(replacement, "unix:gid", gid);
    }
}
