package io.muster.engine.resource.file;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Result;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.Stat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code ensure: link}: the path is a symbolic link to {@code target}. A wrong link or a file there is replaced
 * in one step (a link made under a temp name and renamed over it), so the path never names nothing; a
 * directory only with {@code force}, removed first without following a link in it.
 */
record Link(Path path, String target, boolean force) {

    Result converge(Directory dir, Stat now, boolean apply) throws IOException {
        String name = ParentDirectory.name(path);
        Change change;
        if (now == null) {
            change = Change.of("ensure", "absent", "link");
        } else if (now.link()) {
            String current = dir.readLink(name);
            if (current.equals(target)) return Result.STABLE;
            change = Change.of("target", current, target);
        } else if (now.directory() && !force) {
            throw new IOException(path + " is a directory; set force: true to replace it with a link");
        } else {
            change = Change.of("ensure", now.typeName(), "link");
        }
        if (apply) {
            Directory parent = ParentDirectory.require(dir, path);
            if (now != null && now.directory()) parent.delete(name);
            parent.replaceWithLink(name, target);
        }
        return Result.changed(List.of(change));
    }
}
