package io.muster.engine.resource.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** What the files below a path are (owner, group, mode, inode, content), to show root changed none of them. */
record Snapshot(Map<String, String> files) {

    static Snapshot of(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Map<String, Object> a = Files.readAttributes(p, "unix:uid,gid,mode,ino", LinkOption.NOFOLLOW_LINKS);
                String content = Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? Arrays.toString(Files.readAllBytes(p)) : "";
                files.put(root.relativize(p).toString(), a.get("uid") + ":" + a.get("gid") + " " + Integer.toOctalString((int) a.get("mode"))
                        + " #" + a.get("ino") + " " + content);
            }
        }
        return new Snapshot(files);
    }
}
