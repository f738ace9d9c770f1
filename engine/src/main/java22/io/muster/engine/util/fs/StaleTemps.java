package io.muster.engine.util.fs;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Temp files a killed run (kill -9) left behind: each directory is listed once per process, on its first
 * write; the temp files of a name are removed when that name is next written. Only regular files whose
 * names match muster's temp pattern go, unlinked relative to the directory (a link is never followed).
 */
final class StaleTemps {
    private StaleTemps() {}

    private static final Pattern TEMP = Pattern.compile("\\.(.+)" + Pattern.quote(TempFile.MARK) + "[0-9a-f]{16}");
    /**
     * Per directory (path, device and inode: an inode is reused once its directory is gone): target name, its
     * temp files found when the directory was first listed. A directory made after that listing holds no
     * temp file of a run killed before this one started.
     */
    private static final Map<String, Map<String, Set<String>>> FOUND = new ConcurrentHashMap<>();

    static void remove(Directory dir, String name) throws IOException {
        Stat self = dir.stat();
        Map<String, Set<String>> temps = FOUND.computeIfAbsent(dir.path() + "\0" + self.device() + ":" + self.inode(), key -> list(dir));
        Set<String> stale = temps.remove(name);
        if (stale == null) return;
        for (String temp : stale) {
            Stat st = dir.stat(temp);
            if (st != null && st.regular()) dir.unlink(temp);
        }
    }

    private static Map<String, Set<String>> list(Directory dir) {
        Map<String, Set<String>> temps = new ConcurrentHashMap<>();
        try {
            for (String entry : dir.list()) {
                var m = TEMP.matcher(entry);
                if (m.matches()) temps.computeIfAbsent(m.group(1), k -> ConcurrentHashMap.newKeySet()).add(entry);
            }
        } catch (IOException e) {
            // an unlistable directory: no stale temps are removed from it; the write itself goes on
        }
        return temps;
    }
}
